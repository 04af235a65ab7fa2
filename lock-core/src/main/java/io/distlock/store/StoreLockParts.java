package io.distlock.store;

import io.distlock.internal.engine.GuardedObserver;
import io.distlock.spi.HoldSettings;
import java.util.concurrent.atomic.AtomicBoolean;

/** What a {@link StoreLock} and its inspection share, made before either. */
record StoreLockParts(
        LeaseStore store,
        HoldSettings settings,
        GuardedObserver observer,
        StoreHolds holds,
        AtomicBoolean closed,
        StoreInspection inspection) {

    static StoreLockParts of(LeaseStore store, HoldSettings settings) {
        GuardedObserver observer = new GuardedObserver(settings.observer());
        StoreHolds holds = new StoreHolds(settings, observer);
        AtomicBoolean closed = new AtomicBoolean();
        return new StoreLockParts(
                store, settings, observer, holds, closed, new StoreInspection(store, holds, closed::get));
    }
}
