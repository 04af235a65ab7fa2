package io.distlock.autoconfigure;

import io.distlock.monitor.LockObserver;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLock;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Builds the {@link StoreLock} of a backend that is a {@link LeaseStore}, with the settings every backend shares; for
 * the configurations in the backends' packages.
 */
public final class StoreLocks {

    private StoreLocks() {}

    /**
     * A lock over the store with the watchdog, shutdown and observers of the application.
     *
     * @param store the backend's store
     * @param properties the settings every backend shares
     * @param observers the application's lock observers, told in their order
     * @return the lock
     */
    public static StoreLock build(
            LeaseStore store, DistributedLockProperties properties, ObjectProvider<LockObserver> observers) {
        return StoreLock.builder(store)
                .instanceName(properties.effectiveInstanceName())
                .watchdogLease(properties.getWatchdog().getLease())
                .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                .maxHold(properties.getWatchdog().getMaxHold())
                .shutdownGracePeriod(properties.getShutdown().getGracePeriod())
                .observer(LockObserver.of(observers.orderedStream().toList()))
                .build();
    }
}
