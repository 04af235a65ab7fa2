package io.distlock.tck.process;

import java.time.Duration;

/**
 * Builds the backend's lock from the address of its store, in the child JVMs of {@link ProcessContract} and in the
 * test JVM alike: the one thing a backend implements to run the contract. The contract names the factory's class to
 * its children, which find it on the test class path of the module that runs the contract; implementations are public
 * and have a public constructor without arguments.
 */
public interface ProcessLockFactory {

    /**
     * Connects to the store and builds the lock.
     *
     * @param address where the store is, as the backend's {@link ProcessContract#storeAddress()} gives it
     * @param watchdogLease the lease of auto-renewed holds; the lock renews them at least every third of it, as the
     *     builders do by default
     * @return the lock; closing it closes whatever this method opened
     */
    OpenedLock open(String address, Duration watchdogLease);
}
