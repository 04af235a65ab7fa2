package io.distlock.bench.contender;

/**
 * How a path contender reads the one key string that the harness hands every contender: the tree's name up to the
 * first {@code /}, then the path in that tree. A key without {@code /}, such as a worker's self-check key, names the
 * root of a tree of its own.
 *
 * @param tree the tree's name, without {@code /}
 * @param path the path in the tree, empty for the root
 */
record TreePath(String tree, String path) {

    /**
     * Splits a key.
     *
     * @param key {@code tree/path} or {@code tree}
     * @return the tree and the path
     */
    static TreePath of(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? new TreePath(key, "") : new TreePath(key.substring(0, slash), key.substring(slash + 1));
    }
}
