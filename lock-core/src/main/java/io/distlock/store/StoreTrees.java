package io.distlock.store;

import io.distlock.Lock;
import io.distlock.Trees;
import io.distlock.internal.engine.ThreadOwnedHandles;
import io.distlock.internal.path.PathRules;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.HeldLock;
import io.distlock.spi.HoldSettings;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The path locks of a {@link StoreLock} whose store locks paths: one {@link StoreLock} per tree in use, over the
 * store's paths of that tree, behind the {@link StoreTree} that {@link #tree(String)} hands out.
 *
 * <p>Tree names may come from requests ({@code "project:" + id}), so a tree's lock is kept only while it is in use: once
 * the trees kept are twice as many as after the last sweep, the locks of trees that no call is using and that hold
 * nothing are let go, and made anew when next asked for. Every tree's lock shares one bound on the store calls under
 * way, so that trees made anew cannot leave more threads behind with a store that stopped answering, and one
 * registry of the handles that threads own through views, so that a view's hold is found whichever lock made it.
 */
final class StoreTrees implements Trees {

    /** Below this many trees kept, nothing is swept. */
    private static final int FIRST_SWEEP = 64;

    private final LeaseStore store;
    private final HoldSettings settings;
    private final CallsUnderWay calls;
    private final ThreadOwnedHandles threadOwned = new ThreadOwnedHandles();
    private final ConcurrentMap<String, Kept> byTree = new ConcurrentHashMap<>();
    private final AtomicInteger sweepAt = new AtomicInteger(FIRST_SWEEP);
    private volatile boolean closed;

    StoreTrees(LeaseStore store, HoldSettings settings, int maxCallsUnderWay) {
        this.store = store;
        this.settings = settings;
        this.calls = new CallsUnderWay(maxCallsUnderWay);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if the name is blank or too long for the store, naming the rule
     */
    @Override
    public Lock tree(String tree) {
        PathRules.validateTree(tree);
        store.validatePath(tree, List.of());
        return new StoreTree(this, tree);
    }

    /**
     * Runs a call on the tree's lock, making the lock if the tree has none, and keeping it while the call runs.
     *
     * @throws IllegalStateException if the lock that offers these trees is closed
     */
    <T, X extends Exception> T using(String tree, String path, TreeCall<T, X> call) throws X {
        if (closed) {
            throw new IllegalStateException("path '" + PrintableText.of(path) + "' of tree '" + PrintableText.of(tree)
                    + "' cannot be acquired: the path locks of " + store.describe() + " are closed");
        }
        Kept kept = byTree.compute(tree, (name, old) -> {
            Kept used = old == null ? new Kept(new StoreLock(new PathLeaseStore(store, name), settings, this)) : old;
            used.calls++;
            return used;
        });
        try {
            return call.on(kept.lock);
        } finally {
            byTree.computeIfPresent(tree, (name, used) -> {
                used.calls--;
                return used;
            });
            sweepIfMany();
        }
    }

    CallsUnderWay calls() {
        return calls;
    }

    ThreadOwnedHandles threadOwned() {
        return threadOwned;
    }

    /** How many trees' locks are kept now; for tests of the sweep. */
    int kept() {
        return byTree.size();
    }

    private void sweepIfMany() {
        int at = sweepAt.get();
        if (byTree.size() < at || !sweepAt.compareAndSet(at, Integer.MAX_VALUE)) {
            return;
        }
        try {
            for (String tree : byTree.keySet()) {
                byTree.computeIfPresent(
                        tree, (name, kept) -> kept.calls == 0 && kept.lock.holdsNothing() ? null : kept);
            }
        } finally {
            sweepAt.set(Math.max(FIRST_SWEEP, 2 * byTree.size()));
        }
    }

    /** The holds of every tree, for the lock's view of held locks. */
    List<HeldLock> heldLocks() {
        return byTree.values().stream()
                .flatMap(kept -> kept.lock.heldLocks().stream())
                .toList();
    }

    /**
     * Closes every tree's lock, each waiting its shutdown grace period for its paths to be released, before the lock
     * closes the store they share.
     */
    void close() {
        closed = true;
        byTree.values().forEach(kept -> kept.lock.close());
    }

    /** A call on a tree's lock. */
    @FunctionalInterface
    interface TreeCall<T, X extends Exception> {
        T on(StoreLock lock) throws X;
    }

    /** A tree's lock, and how many calls use it now; changed only inside the map's atomic updates of its tree. */
    private static final class Kept {

        private final StoreLock lock;
        private int calls;

        Kept(StoreLock lock) {
            this.lock = lock;
        }
    }
}
