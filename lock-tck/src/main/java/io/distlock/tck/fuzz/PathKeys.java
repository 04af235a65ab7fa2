package io.distlock.tck.fuzz;

import java.util.SplittableRandom;

/**
 * The paths of a {@link PathTree} as a run's sections write them to the lock. A path lock gets each path in one of its
 * spellings ({@link PathTree#spelled}), and its handles report the canonical path as their key; the control that
 * takes paths as plain keys gets the tree's name, a {@code /} and the canonical path, which its handles report as it
 * is.
 */
final class PathKeys implements KeySpace {

    private final PathTree tree;
    private final boolean asPlainKeys;

    /**
     * @param asPlainKeys whether the lock takes each path as a plain key, as the broken control does, rather than as a
     *     path of the tree
     */
    PathKeys(PathTree tree, boolean asPlainKeys) {
        this.tree = tree;
        this.asPlainKeys = asPlainKeys;
    }

    /** The canonical path of a key as {@link #key} writes it, or as a handle of the key reports it. */
    static String pathOf(String key) {
        // No segment of the tree's names contains the tree's name, let alone a path that would begin with it.
        String prefix = PathTree.NAME + "/";
        return key.startsWith(prefix) ? key.substring(prefix.length()) : PathTree.canonical(key);
    }

    /** The plain key of the canonical {@code path} for the control. */
    static String plainKeyOf(String path) {
        return PathTree.NAME + "/" + path;
    }

    /** Two paths taken together must not conflict, or the second would wait for the first: never the root then. */
    @Override
    public String key(Operation operation, SplittableRandom random) {
        String path = operation == Operation.SEVERAL_KEYS ? tree.drawBelowRoot(random) : tree.draw(random);
        return written(path, random);
    }

    @Override
    public String otherKey(String key, SplittableRandom random) {
        return written(tree.drawApartFrom(pathOf(key), random), random);
    }

    @Override
    public String handleKey(String key) {
        return asPlainKeys ? key : pathOf(key);
    }

    /** A path of the tree in its canonical spelling, or as the control's plain key. */
    @Override
    public String written(String path) {
        return asPlainKeys ? plainKeyOf(path) : path;
    }

    private String written(String path, SplittableRandom random) {
        return asPlainKeys ? plainKeyOf(path) : PathTree.spelled(path, random);
    }
}
