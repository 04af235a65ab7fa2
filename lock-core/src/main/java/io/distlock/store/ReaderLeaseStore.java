package io.distlock.store;

import java.time.Duration;

/**
 * A store's readers seen as a store of leases, so that a {@link StoreLock} over it is the read side of the store's
 * keys: each acquisition asks the store for a read of the key.
 */
final class ReaderLeaseStore extends KindLeaseStore {

    ReaderLeaseStore(LeaseStore store) {
        super(store, "read");
    }

    @Override
    public Acquisition begin(String key, String owner, String holder, Duration lease) {
        return store().beginRead(key, owner, holder, lease);
    }
}
