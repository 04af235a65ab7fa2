package io.distlock.store;

import java.time.Duration;
import java.util.Optional;

/**
 * A store's permits of one count seen as a store of leases, so that a {@link StoreLock} over it is that count's
 * semaphore, with every promise the lock keeps for its holds: each acquisition asks the store for one of the key's
 * permits instead of the key. The store itself belongs to the lock it came with, which closes it.
 */
final class PermitLeaseStore implements LeaseStore {

    private final LeaseStore store;
    private final int permits;

    PermitLeaseStore(LeaseStore store, int permits) {
        this.store = store;
        this.permits = permits;
    }

    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        return store.beginPermit(key, permits, owner, "", lease);
    }

    @Override
    public Acquisition begin(String key, String owner, String holder, Duration lease) {
        return store.beginPermit(key, permits, owner, holder, lease);
    }

    @Override
    public void validateKey(String key) {
        store.validateKey(key);
    }

    /**
     * Refused: a semaphore's key has as many leases as holders, and the store reads one lease per key.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Optional<Duration> remainingLease(String key) {
        throw new UnsupportedOperationException("the permits of semaphore " + describe() + " cannot be inspected");
    }

    @Override
    public Duration callTimeout() {
        return store.callTimeout();
    }

    @Override
    public void ping() {
        store.ping();
    }

    @Override
    public String describe() {
        return store.describe() + "[permits=" + permits + "]";
    }

    /** Does nothing: the store is the lock's that handed out this semaphore, and that lock closes it. */
    @Override
    public void close() {}
}
