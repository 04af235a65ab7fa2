package io.distlock.store;

import java.time.Duration;
import java.util.Optional;

/**
 * A store's keys taken another way than exclusively (as permits, for reading, through their queue, or as paths), seen as a store
 * of leases, so that a
 * {@link StoreLock} over it is that kind's lock with every promise the lock keeps for its holds. The store itself
 * belongs to the lock of its exclusive kind, which closes it.
 */
abstract sealed class KindLeaseStore implements LeaseStore
        permits FairLeaseStore, PathLeaseStore, PermitLeaseStore, ReaderLeaseStore {

    private final LeaseStore store;
    private final String kind;

    /**
     * @param store the store of the exclusive lock
     * @param kind how its keys are taken here, for messages, such as {@code "permits=3"}, {@code "read"} or {@code
     *     "fair"}
     */
    KindLeaseStore(LeaseStore store, String kind) {
        this.store = store;
        this.kind = kind;
    }

    /** The store of the exclusive lock, whose acquisitions of this kind this one begins. */
    final LeaseStore store() {
        return store;
    }

    @Override
    public final Acquisition begin(String key, String owner, Duration lease) {
        return begin(key, owner, "", lease);
    }

    @Override
    public abstract Acquisition begin(String key, String owner, String holder, Duration lease);

    @Override
    public void validateKey(String key) {
        store.validateKey(key);
    }

    /**
     * Refused: a key taken this way has as many leases as holders, and the store reads one lease per key.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public final Optional<Duration> remainingLease(String key) {
        throw new UnsupportedOperationException("the holders of " + describe() + " cannot be inspected");
    }

    @Override
    public final Duration callTimeout() {
        return store.callTimeout();
    }

    @Override
    public final void ping() {
        store.ping();
    }

    @Override
    public final String describe() {
        return store.describe() + "[" + kind + "]";
    }

    /** Does nothing: the store is the exclusive lock's, and that lock closes it. */
    @Override
    public final void close() {}
}
