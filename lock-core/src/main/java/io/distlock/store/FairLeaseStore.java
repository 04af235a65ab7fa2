package io.distlock.store;

import java.time.Duration;

/**
 * A store's queued acquisitions seen as a store of leases, so that a {@link StoreLock} over it is the store's fair lock:
 * each acquisition takes the key through the key's queue ({@link LeaseStore#beginFair}).
 */
final class FairLeaseStore extends KindLeaseStore {

    FairLeaseStore(LeaseStore store) {
        super(store, "fair");
    }

    @Override
    public Acquisition begin(String key, String owner, String holder, Duration lease) {
        return store().beginFair(key, owner, holder, lease);
    }
}
