package io.distlock.store;

import io.distlock.internal.engine.GuardedObserver;
import io.distlock.internal.engine.ThreadOwnedHandles;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.LockKind;
import io.distlock.spi.HoldSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link StoreLock} and its inspection share, made before either: among them the lock's semaphores, its trees
 * and its read side, whose holds the inspection lists beside the lock's own, and the sides a re-entry looks at.
 *
 * @param side the lock's own holds and thread-owned handles
 * @param writer for the read side of a key, the write side, whose scopes a read re-enters; else null
 * @param readers for the write side of a store that has readers, its read side; else null
 * @param fair for the lock of a store that queues its keys' waiters apart, its fair lock; else null
 * @param trees for the lock of a store that locks paths, its trees; else null
 */
record StoreLockParts(
        LeaseStore store,
        HoldSettings settings,
        GuardedObserver observer,
        StoreSide side,
        AtomicBoolean closed,
        @Nullable StoreSemaphores semaphores,
        @Nullable StoreSide writer,
        @Nullable StoreLock readers,
        @Nullable StoreLock fair,
        @Nullable StoreTrees trees,
        StoreInspection inspection) {

    /**
     * @param kind what the lock's holds are: a key's, or, for the lock of a semaphore, its permits, or for the read
     *     side, its reads; only a key's lock over a store that hands out permits has semaphores, only one over a
     *     store that has readers has a read side, and only one over a store with a queue of its own a fair lock
     * @param writer the write side, for the read side; else null
     * @param threadOwned the registry of handles owned through views, shared by the trees of a path lock; else null
     */
    static StoreLockParts of(
            LeaseStore store,
            HoldSettings settings,
            int maxCallsUnderWay,
            LockKind kind,
            @Nullable StoreSide writer,
            @Nullable ThreadOwnedHandles threadOwned) {
        GuardedObserver observer = new GuardedObserver(settings.observer());
        StoreSide side = new StoreSide(
                new StoreHolds(settings, observer, kind, PathLeaseStore.treeOf(store)),
                threadOwned == null ? new ThreadOwnedHandles() : threadOwned);
        AtomicBoolean closed = new AtomicBoolean();
        boolean exclusive = kind == LockKind.EXCLUSIVE;
        StoreSemaphores semaphores =
                exclusive && store.offersPermits() ? new StoreSemaphores(store, settings, maxCallsUnderWay) : null;
        StoreLock readers = exclusive && store.offersReaders()
                ? new StoreLock(new ReaderLeaseStore(store), settings, maxCallsUnderWay, LockKind.READ, side)
                : null;
        StoreLock fair = exclusive && store.offersFairQueue() && !store.servesWaitersInArrivalOrder()
                ? new StoreLock(new FairLeaseStore(store), settings, maxCallsUnderWay, LockKind.FAIR, null)
                : null;
        StoreTrees trees = exclusive && store.offersPaths() ? new StoreTrees(store, settings, maxCallsUnderWay) : null;
        StoreInspection inspection =
                new StoreInspection(store, side.holds(), () -> alsoHeld(semaphores, readers, fair, trees), closed::get);
        return new StoreLockParts(
                store, settings, observer, side, closed, semaphores, writer, readers, fair, trees, inspection);
    }

    private static List<HeldLock> alsoHeld(
            @Nullable StoreSemaphores semaphores,
            @Nullable StoreLock readers,
            @Nullable StoreLock fair,
            @Nullable StoreTrees trees) {
        List<HeldLock> held = new ArrayList<>();
        if (semaphores != null) {
            held.addAll(semaphores.heldLocks());
        }
        if (trees != null) {
            held.addAll(trees.heldLocks());
        }
        for (StoreLock side : new StoreLock[] {readers, fair}) {
            if (side != null) {
                held.addAll(side.heldLocks());
            }
        }
        return held;
    }
}
