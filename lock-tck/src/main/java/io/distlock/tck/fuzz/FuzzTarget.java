package io.distlock.tck.fuzz;

import io.distlock.store.LeaseStore;
import java.time.Duration;
import java.util.Map;

/**
 * What a fuzz run asks of a worker's {@link FuzzLockFactory}: where the lock's store is, which lock to build, under
 * which key prefix, and how the lock must renew; and where the lock's view counts what its reads met.
 */
public final class FuzzTarget {

    private final String address;
    private final String variant;
    private final Map<String, String> options;
    private final String keyPrefix;
    private final LockView.Counts counts;

    FuzzTarget(String address, String variant, Map<String, String> options, String keyPrefix, LockView.Counts counts) {
        this.address = address;
        this.variant = variant;
        this.options = Map.copyOf(options);
        this.keyPrefix = keyPrefix;
        this.counts = counts;
    }

    /**
     * Where the store is, as the run's {@link FuzzServers#lockAddress()} gave it, in the form the factory takes.
     *
     * @return the address, such as a JDBC URL
     */
    public String address() {
        return address;
    }

    /**
     * Which lock to build, in the factory's own terms ({@link FuzzLock#variant()}).
     *
     * @return the variant
     */
    public String variant() {
        return variant;
    }

    /**
     * The run's settings for the factory ({@link FuzzLock#options()}).
     *
     * @return the options, empty if the run gave none
     */
    public Map<String, String> options() {
        return options;
    }

    /**
     * A prefix of the run's own, shared by all its worker processes, for a lock that keeps its keys under one, so that
     * runs on the same servers never meet. The keys the sections take are the run's key names, without it.
     *
     * @return the prefix
     */
    public String keyPrefix() {
        return keyPrefix;
    }

    /**
     * The name of the one tree whose paths a path run's sections lock ({@link SectionMix#PATHS}).
     *
     * @return the tree's name
     */
    public String treeName() {
        return PathTree.NAME;
    }

    /**
     * How many permits a key of the semaphore of {@link FuzzLock#storeSemaphore} has: {@link
     * SectionMix#PERMITS_PER_KEY}, or one more for its control; 0 for the other variants, which take no permits.
     *
     * @return the permits a key, or 0
     */
    public int permits() {
        return switch (variant) {
            case FuzzLock.STORE_SEMAPHORE -> SectionMix.PERMITS_PER_KEY;
            case FuzzLock.STORE_SEMAPHORE_OF_ONE_TOO_MANY -> SectionMix.PERMITS_PER_KEY + 1;
            default -> 0;
        };
    }

    /**
     * The watchdog lease the lock must give auto-renewed holds, renewing them before it runs out: the checker counts
     * an auto-renewed hold as this long until its first renewal, and short, so that a held section lives through
     * several renewals.
     *
     * @return the watchdog lease
     */
    public Duration watchdogLease() {
        return LeaseProfile.WATCHDOG_LEASE;
    }

    /**
     * The store for a {@code StoreLock} of {@link FuzzLock#storeLock}, {@link FuzzLock#shortLeaseStoreLock}, {@link
     * FuzzLock#storeFair}, {@link FuzzLock#storeReadWrite}, {@link FuzzLock#storePath} or a semaphore of {@link
     * FuzzLock#storeSemaphore}: {@code store} itself, or for the
     * control a {@link ShortLeaseStore} over it.
     *
     * @param store the backend's store
     * @return the store to build the lock on
     * @throws IllegalArgumentException if the variant is none of them
     */
    public LeaseStore leaseStore(LeaseStore store) {
        return switch (variant) {
            case FuzzLock.STORE,
                    FuzzLock.STORE_FAIR,
                    FuzzLock.STORE_READ_WRITE,
                    FuzzLock.STORE_PATH,
                    FuzzLock.STORE_SEMAPHORE,
                    FuzzLock.STORE_SEMAPHORE_OF_ONE_TOO_MANY -> store;
            case FuzzLock.SHORT_LEASE_STORE -> new ShortLeaseStore(store);
            default -> throw new IllegalArgumentException("not a StoreLock variant: " + variant);
        };
    }

    /**
     * Where the view counts what its reads of the store met, for the run's report.
     *
     * @return the counts of this worker
     */
    public LockView.Counts counts() {
        return counts;
    }
}
