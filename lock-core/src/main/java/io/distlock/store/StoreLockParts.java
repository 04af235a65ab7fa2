package io.distlock.store;

import io.distlock.internal.engine.GuardedObserver;
import io.distlock.monitor.LockKind;
import io.distlock.spi.HoldSettings;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link StoreLock} and its inspection share, made before either: among them the lock's semaphores, whose holds
 * the inspection lists beside the lock's own.
 */
record StoreLockParts(
        LeaseStore store,
        HoldSettings settings,
        GuardedObserver observer,
        StoreHolds holds,
        AtomicBoolean closed,
        @Nullable StoreSemaphores semaphores,
        StoreInspection inspection) {

    /**
     * @param kind what the lock's holds are: a key's, or, for the lock of a semaphore, its permits; only a key's lock
     *     over a store that hands out permits has semaphores
     */
    static StoreLockParts of(LeaseStore store, HoldSettings settings, int maxCallsUnderWay, LockKind kind) {
        GuardedObserver observer = new GuardedObserver(settings.observer());
        StoreHolds holds = new StoreHolds(settings, observer, kind);
        AtomicBoolean closed = new AtomicBoolean();
        StoreSemaphores semaphores = kind == LockKind.EXCLUSIVE && store.offersPermits()
                ? new StoreSemaphores(store, settings, maxCallsUnderWay)
                : null;
        StoreInspection inspection =
                new StoreInspection(store, holds, semaphores == null ? List::of : semaphores::heldLocks, closed::get);
        return new StoreLockParts(store, settings, observer, holds, closed, semaphores, inspection);
    }
}
