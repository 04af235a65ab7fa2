package io.distlock.autoconfigure;

import io.distlock.monitor.LockObserver;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLock;
import org.springframework.beans.factory.ObjectProvider;

/** Builds the {@link StoreLock} of a backend other than Redis with the settings every backend shares. */
public final class StoreLocks {

    private StoreLocks() {}

    public static StoreLock build(
            LeaseStore store, DistributedLockProperties properties, ObjectProvider<LockObserver> observers) {
        return StoreLock.builder(store)
                .watchdogLease(properties.getWatchdog().getLease())
                .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                .shutdownGracePeriod(properties.getShutdown().getGracePeriod())
                .observer(LockObserver.of(observers.orderedStream().toList()))
                .build();
    }
}
