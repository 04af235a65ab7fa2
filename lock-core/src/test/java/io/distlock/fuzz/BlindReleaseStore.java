package io.distlock.fuzz;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A broken {@link LeaseStore}, for the control runs of {@link LockKind#BLIND_RELEASE_STORE}: a grant's release frees
 * its key whoever holds it, as a {@code DEL} without comparing the owner does on Redis. A holder whose lease ran out
 * and whose key was taken since frees its successor's key at release, and the next waiter enters beside the successor.
 * Everything else is the real store's.
 */
final class BlindReleaseStore implements LeaseStore {

    private final LeaseStore store;
    private final Consumer<String> freeKey;

    /**
     * @param store the real store
     * @param freeKey frees a key in {@code store} whoever holds it
     */
    BlindReleaseStore(LeaseStore store, Consumer<String> freeKey) {
        this.store = store;
        this.freeKey = freeKey;
    }

    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        Acquisition acquisition = store.begin(key, owner, lease);
        return new Acquisition() {
            @Override
            public StoreLease tryTake() {
                StoreLease granted = acquisition.tryTake();
                return granted == null ? null : new BlindRelease(key, granted);
            }

            @Override
            public void awaitChance(long deadlineNanos) throws InterruptedException {
                acquisition.awaitChance(deadlineNanos);
            }

            @Override
            public void close() {
                acquisition.close();
            }
        };
    }

    @Override
    public void validateKey(String key) {
        store.validateKey(key);
    }

    @Override
    public Optional<Duration> remainingLease(String key) {
        return store.remainingLease(key);
    }

    @Override
    public void ping() {
        store.ping();
    }

    @Override
    public String describe() {
        return "blind release over " + store.describe();
    }

    @Override
    public void close() {
        store.close();
    }

    private final class BlindRelease implements StoreLease {

        private final String key;
        private final StoreLease granted;

        BlindRelease(String key, StoreLease granted) {
            this.key = key;
            this.granted = granted;
        }

        @Override
        public long fencingToken() {
            return granted.fencingToken();
        }

        @Override
        public boolean extend(Duration lease) {
            return granted.extend(lease);
        }

        /** Frees the key, then lets the real release clean up whatever the grant left; never reports a loss. */
        @Override
        public boolean release() {
            freeKey.accept(key);
            granted.release();
            return true;
        }

        @Override
        public void whenGone(Runnable gone) {
            granted.whenGone(gone);
        }
    }
}
