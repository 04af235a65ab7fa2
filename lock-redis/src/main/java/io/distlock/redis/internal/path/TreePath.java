package io.distlock.redis.internal.path;

import io.distlock.Lock;
import io.distlock.internal.text.PrintableText;
import java.util.ArrayList;
import java.util.List;

/**
 * A path in a named tree of a {@link io.distlock.redis.PathLock}, and the Redis keys of the path and of each of its
 * ancestors.
 *
 * <p>Every key of a tree starts with the tree's hash tag {@code {prefix + tree}}, so that one script can reach them all
 * on a Redis Cluster. Node {@code A/C} has {@code {tag}/A/C/h}, the holder of exactly that path, and {@code
 * {tag}/A/C/d}, the holders strictly below it; the root's are {@code {tag}//h} and {@code {tag}//d}. Segments never
 * contain {@code /}, so these names are unambiguous, and since they never end with <code>}</code> or {@code :fence}, no
 * key of the exclusive lock can be one of them.
 */
public final class TreePath {

    /** Deep enough for any folder tree, and keeps a script's key list short. */
    static final int MAX_DEPTH = 64;

    private static final String HOLDER_SUFFIX = "/h";
    private static final String BELOW_SUFFIX = "/d";

    private final String tag;
    private final List<String> segments;

    private TreePath(String tag, List<String> segments) {
        this.tag = tag;
        this.segments = segments;
    }

    /**
     * Parses a path: segments separated by {@code /}; one leading and one trailing {@code /} are ignored; an empty path
     * or {@code /} is the whole tree.
     *
     * @throws IllegalArgumentException if the path has a blank segment (as in {@code a//b}), a {@code .} or {@code ..}
     *     segment, more than {@value #MAX_DEPTH} segments, or more than {@link Lock#MAX_KEY_LENGTH} characters
     */
    public static TreePath parse(String prefix, String tree, String path) {
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
        return of(prefix, tree, segments);
    }

    /**
     * A path given as its segments; an empty list is the whole tree.
     *
     * @throws IllegalArgumentException if a segment is null, blank, {@code .} or {@code ..}, or contains {@code /}, or
     *     there are more than {@value #MAX_DEPTH}
     */
    public static TreePath of(String prefix, String tree, List<String> segments) {
        validateTree(tree);
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
                throw new IllegalArgumentException("path segment " + (segment == null ? "null" : "\"" + segment + "\"")
                        + " is not allowed; a segment is any text without '/' that is not blank, \".\" or \"..\"");
            }
            length += segment.length() + 1;
        }
        if (length > Lock.MAX_KEY_LENGTH + 1) {
            throw new IllegalArgumentException(
                    "path must be at most " + Lock.MAX_KEY_LENGTH + " characters, but had " + (length - 1));
        }
        return new TreePath("{" + prefix + tree + "}", List.copyOf(segments));
    }

    /** Blank segments are refused too: a folder name of spaces alone is far more often a bug than a name. */
    private static boolean isAllowed(String segment) {
        return !segment.isBlank() && !segment.equals(".") && !segment.equals("..");
    }

    public static void validateTree(String tree) {
        if (tree == null || tree.isBlank()) {
            throw new IllegalArgumentException("tree name must not be blank, but was "
                    + (tree == null ? "null" : "\"" + PrintableText.of(tree) + "\""));
        }
        if (tree.indexOf('{') >= 0 || tree.indexOf('}') >= 0) {
            throw new IllegalArgumentException("tree name must not contain '{' or '}' (its keys' hash tag), but was \""
                    + PrintableText.of(tree) + "\"");
        }
        if (tree.length() > Lock.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "tree name must be at most " + Lock.MAX_KEY_LENGTH + " characters, but had " + tree.length());
        }
    }

    /** The path whose {@link #holderKey()} this is; the inverse of that method. */
    static TreePath ofHolderKey(String holderKey) {
        String tag = tagOf(holderKey);
        if (!holderKey.endsWith(HOLDER_SUFFIX) || holderKey.length() < tag.length() + 1 + HOLDER_SUFFIX.length()) {
            throw new IllegalArgumentException("not the holder key of a path: " + holderKey);
        }
        String joined = holderKey.substring(tag.length() + 1, holderKey.length() - HOLDER_SUFFIX.length());
        return new TreePath(tag, joined.isEmpty() ? List.of() : List.of(joined.split("/", -1)));
    }

    /** The tree's hash tag in one of its keys, which is also the key its releases are signalled under. */
    static String tagOf(String treeKey) {
        int tagEnd = treeKey.indexOf('}');
        if (!treeKey.startsWith("{") || tagEnd < 0 || !treeKey.startsWith("/", tagEnd + 1)) {
            throw new IllegalArgumentException("not a key of a path lock's tree: " + treeKey);
        }
        return treeKey.substring(0, tagEnd + 1);
    }

    /** How many segments: 0 for the whole tree. */
    public int depth() {
        return segments.size();
    }

    /** The segments, root first; empty for the whole tree. */
    public List<String> segments() {
        return segments;
    }

    /** The key whose value is the token of the holder of exactly this path. */
    public String holderKey() {
        return holderKey(depth());
    }

    /** The holder key of the ancestor with the first {@code depth} segments (0: the root). */
    public String holderKey(int depth) {
        return node(depth) + HOLDER_SUFFIX;
    }

    /** The sorted set of the holders strictly below the ancestor with the first {@code depth} segments. */
    String belowKey(int depth) {
        return node(depth) + BELOW_SUFFIX;
    }

    /** The tree's fencing counter: one for all its paths, so that conflicting holds are ordered by their tokens. */
    String fenceKey() {
        return tag + "/fence";
    }

    /** Where waiters of other instances mark that they wait for a release in this tree. */
    String waitersKey() {
        return tag + "/w";
    }

    /** The key under which this tree's releases are signalled to waiters: the tree's hash tag. */
    public String releaseKey() {
        return tag;
    }

    /** The below keys of every strict ancestor, root first: where this path's holder is counted. */
    List<String> ancestorBelowKeys() {
        List<String> keys = new ArrayList<>(depth());
        for (int depth = 0; depth < depth(); depth++) {
            keys.add(belowKey(depth));
        }
        return keys;
    }

    private String node(int depth) {
        return tag + "/" + String.join("/", segments.subList(0, depth));
    }

    @Override
    public String toString() {
        return tag + "/" + String.join("/", segments);
    }
}
