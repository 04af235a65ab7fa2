package io.distlock.store;

import io.distlock.internal.path.PathRules;
import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The paths of one tree seen as a store of leases, so that a {@link StoreLock} over it is the tree's path lock: its
 * keys are canonical paths ({@code ""} for the whole tree), and each acquisition takes its path through {@link
 * LeaseStore#beginPath}.
 */
final class PathLeaseStore extends KindLeaseStore {

    private final String tree;

    PathLeaseStore(LeaseStore store, String tree) {
        super(store, "tree=" + PrintableText.of(tree));
        this.tree = tree;
    }

    /** For the paths of a tree, the tree, under whose name observers and inspection see its holds; else null. */
    static @Nullable String treeOf(LeaseStore store) {
        return store instanceof PathLeaseStore paths ? paths.tree : null;
    }

    @Override
    public Acquisition begin(String key, String owner, String holder, Duration lease) {
        return store().beginPath(tree, PathRules.parse(key), owner, holder, lease);
    }

    @Override
    public void validateKey(String key) {
        store().validatePath(tree, PathRules.parse(key));
    }
}
