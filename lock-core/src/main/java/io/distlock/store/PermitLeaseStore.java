package io.distlock.store;

import java.time.Duration;

/**
 * A store's permits of one count seen as a store of leases, so that a {@link StoreLock} over it is that count's
 * semaphore: each acquisition asks the store for one of the key's permits instead of the key.
 */
final class PermitLeaseStore extends KindLeaseStore {

    private final int permits;

    PermitLeaseStore(LeaseStore store, int permits) {
        super(store, "permits=" + permits);
        this.permits = permits;
    }

    @Override
    public Acquisition begin(String key, String owner, String holder, Duration lease) {
        return store().beginPermit(key, permits, owner, holder, lease);
    }
}
