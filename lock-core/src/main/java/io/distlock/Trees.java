package io.distlock;

/**
 * The path locks of a {@link Lock}, one {@link Lock} per named tree; what {@code lock.kind(Kind.PATH)} hands out.
 * Every method of a tree's lock takes a path ({@code "A/C"}) where it takes a key; {@code ""} is the whole tree.
 */
@FunctionalInterface
public interface Trees {

    /**
     * The path lock of one tree. Asking for it reaches no store.
     *
     * @param tree the tree's name, such as {@code project:42}
     * @return the lock on the paths of that tree
     * @throws IllegalArgumentException naming what is wrong with the tree's name
     */
    Lock tree(String tree);
}
