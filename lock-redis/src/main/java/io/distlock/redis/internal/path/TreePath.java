package io.distlock.redis.internal.path;

import io.distlock.internal.path.PathRules;
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
    static final int MAX_DEPTH = PathRules.MAX_DEPTH;

    private static final String HOLDER_SUFFIX = "/h";
    private static final String BELOW_SUFFIX = "/d";

    private final String tag;
    private final List<String> segments;

    private TreePath(String tag, List<String> segments) {
        this.tag = tag;
        this.segments = segments;
    }

    /**
     * Parses a path by the {@linkplain PathRules rules of every backend}: segments separated by {@code /}; one leading
     * and one trailing {@code /} are ignored; an empty path or {@code /} is the whole tree.
     *
     * @throws IllegalArgumentException if the path has a blank segment (as in {@code a//b}), a {@code .} or {@code ..}
     *     segment, more than {@value #MAX_DEPTH} segments, or more than {@link io.distlock.Lock#MAX_KEY_LENGTH}
     *     characters
     */
    public static TreePath parse(String prefix, String tree, String path) {
        return of(prefix, tree, PathRules.parse(path));
    }

    /**
     * A path given as its segments; an empty list is the whole tree.
     *
     * @throws IllegalArgumentException if a segment is null, blank, {@code .} or {@code ..}, or contains {@code /}, or
     *     there are more than {@value #MAX_DEPTH}
     */
    public static TreePath of(String prefix, String tree, List<String> segments) {
        validateTree(tree);
        return new TreePath("{" + prefix + tree + "}", PathRules.validate(segments));
    }

    /** The rules of every backend, and no braces, since the tree's name is its keys' hash tag. */
    public static void validateTree(String tree) {
        PathRules.validateTree(tree);
        if (tree.indexOf('{') >= 0 || tree.indexOf('}') >= 0) {
            throw new IllegalArgumentException("tree name must not contain '{' or '}' (its keys' hash tag), but was \""
                    + PrintableText.of(tree) + "\"");
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
