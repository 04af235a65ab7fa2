package io.distlock.internal.path;

import io.distlock.Lock;
import io.distlock.internal.text.PrintableText;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;

/**
 * What a path of a path lock is, on every backend: segments separated by {@code /}, none of them blank, {@code .} or
 * {@code ..}; one leading and one trailing {@code /} are ignored, and {@code ""} or {@code "/"} is the whole tree. A
 * path's canonical text is its segments joined by {@code /}, the key of its handles.
 */
public final class PathRules {

    /** Deep enough for any folder tree, and keeps a store's work per acquisition short. */
    public static final int MAX_DEPTH = 64;

    private PathRules() {}

    /**
     * Parses a path into its segments.
     *
     * @param path the path as the caller gave it
     * @return the segments, root first; empty for the whole tree
     * @throws IllegalArgumentException if the path is null, has a blank segment (as in {@code a//b}), a {@code .} or
     *     {@code ..} segment, more than {@value #MAX_DEPTH} segments, or more than {@link Lock#MAX_KEY_LENGTH}
     *     characters
     */
    public static List<String> parse(String path) {
        if (path == null) {
            throw new IllegalArgumentException("key (a path) must not be null; use \"\" or \"/\" for the whole tree");
        }
        if (path.length() > Lock.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("path must be at most " + Lock.MAX_KEY_LENGTH + " characters, but had "
                    + path.length() + " (starting \"" + PrintableText.of(path.substring(0, 40)) + "...\")");
        }
        String trimmed = path;
        if (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        List<String> segments = trimmed.isEmpty() ? List.of() : List.of(trimmed.split("/", -1));
        for (String segment : segments) {
            if (!isAllowed(segment)) {
                throw new IllegalArgumentException("path \"" + PrintableText.of(path) + "\" has "
                        + (segment.isBlank() ? "a blank" : "a \"" + PrintableText.of(segment) + "\"")
                        + " segment; a path is segments"
                        + " separated by '/', none of them blank, \".\" or \"..\" (one leading and one trailing '/'"
                        + " are allowed; \"\" is the whole tree)");
            }
        }
        return validate(segments);
    }

    /**
     * Checks a path given as its segments.
     *
     * @param segments the segments, root first; empty for the whole tree
     * @return an unmodifiable copy of the segments
     * @throws IllegalArgumentException if a segment is null, blank, {@code .} or {@code ..}, or contains {@code /}, or
     *     there are more than {@value #MAX_DEPTH}, or they are more than {@link Lock#MAX_KEY_LENGTH} characters joined
     */
    public static List<String> validate(List<String> segments) {
        if (segments == null) {
            throw new IllegalArgumentException("path segments must not be null; use an empty list for the whole tree");
        }
        if (segments.size() > MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "a path may have at most " + MAX_DEPTH + " segments, but had " + segments.size());
        }
        int length = 0;
        for (String segment : segments) {
            if (segment == null || !isAllowed(segment) || segment.indexOf('/') >= 0) {
                throw new IllegalArgumentException("path segment "
                        + (segment == null ? "null" : "\"" + PrintableText.of(segment) + "\"")
                        + " is not allowed; a segment is any text without '/' that is not blank, \".\" or \"..\"");
            }
            length += segment.length() + 1;
        }
        if (length > Lock.MAX_KEY_LENGTH + 1) {
            throw new IllegalArgumentException(
                    "path must be at most " + Lock.MAX_KEY_LENGTH + " characters, but had " + (length - 1));
        }
        return List.copyOf(segments);
    }

    /** Blank segments are refused too: a folder name of spaces alone is far more often a bug than a name. */
    private static boolean isAllowed(String segment) {
        return !segment.isBlank() && !segment.equals(".") && !segment.equals("..");
    }

    /**
     * Checks the name of a tree.
     *
     * @param tree the name
     * @throws IllegalArgumentException if it is null, blank, or longer than {@link Lock#MAX_KEY_LENGTH} characters
     */
    public static void validateTree(String tree) {
        if (tree == null || tree.isBlank()) {
            throw new IllegalArgumentException("tree name must not be blank, but was "
                    + (tree == null ? "null" : "\"" + PrintableText.of(tree) + "\""));
        }
        if (tree.length() > Lock.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "tree name must be at most " + Lock.MAX_KEY_LENGTH + " characters, but had " + tree.length());
        }
    }

    /**
     * The canonical text of a path: its segments joined by {@code /}, {@code ""} for the whole tree.
     *
     * @param segments valid segments
     * @return the canonical path
     */
    public static String join(List<String> segments) {
        return String.join("/", segments);
    }

    /**
     * Whether one path is the other or contains it, so that holds of the two conflict.
     *
     * @param outer valid segments
     * @param inner valid segments
     * @return true if {@code outer} is {@code inner} or one of its ancestors
     */
    public static boolean contains(List<String> outer, List<String> inner) {
        return outer.size() <= inner.size() && inner.subList(0, outer.size()).equals(outer);
    }

    /**
     * The paths in the order every caller takes several of them: segment by segment, each segment compared whole, so
     * that a path comes just before its descendants (the paths' plain text order would not: {@code p/q-z} sorts
     * before {@code p/q/s}).
     *
     * @param paths the paths as the caller gave them; two spellings of one path count once, under the first
     * @return the paths, each once, as the caller spelled them, in their global order
     * @throws IllegalArgumentException if there is no path, a path is invalid, or one path contains another, since
     *     taking the second would wait for the first forever
     */
    public static List<String> order(Collection<String> paths) {
        if (paths == null || paths.isEmpty()) {
            throw new IllegalArgumentException(
                    "keys must name at least one key (a path), but " + (paths == null ? "was null" : "was empty"));
        }
        TreeMap<List<String>, String> ordered = new TreeMap<>(PathRules::compareSegments);
        int position = 0;
        for (String path : paths) {
            position++;
            List<String> segments;
            try {
                segments = parse(path);
            } catch (IllegalArgumentException invalid) {
                throw new IllegalArgumentException(
                        "keys must not contain a null or blank key or an invalid path, but path " + position + " of "
                                + paths.size() + " is not valid: " + invalid.getMessage(),
                        invalid);
            }
            ordered.putIfAbsent(segments, path);
        }
        List<String> previous = null;
        for (List<String> segments : ordered.keySet()) {
            if (previous != null && contains(previous, segments)) {
                throw new IllegalArgumentException("paths taken together must not contain each other, but \""
                        + PrintableText.of(ordered.get(previous)) + "\" contains \""
                        + PrintableText.of(ordered.get(segments)) + "\"; take the outer one alone");
            }
            previous = segments;
        }
        return List.copyOf(ordered.values());
    }

    private static int compareSegments(List<String> left, List<String> right) {
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            int order = left.get(i).compareTo(right.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(left.size(), right.size());
    }
}
