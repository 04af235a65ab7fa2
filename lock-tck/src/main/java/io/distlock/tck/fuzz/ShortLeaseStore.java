package io.distlock.tck.fuzz;

import io.distlock.LockLostException;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.Optional;

/**
 * A broken {@link LeaseStore}, for the control runs of {@link FuzzLock#shortLeaseStoreLock}: it keeps every grant and
 * extension for a thousandth of the lease asked (at least 1 ms), as a store that took the lease's milliseconds for
 * microseconds would.
 * The lock counts on the whole lease, so its holders stay inside after the store let the key go, and the next waiter
 * takes it from under them. Everything else is the real store's.
 */
public final class ShortLeaseStore implements LeaseStore {

    private static final int SHORTENED_BY = 1000;

    private final LeaseStore store;

    /**
     * Shortens every lease of {@code store}.
     *
     * @param store the real store
     */
    public ShortLeaseStore(LeaseStore store) {
        this.store = store;
    }

    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        Acquisition acquisition = store.begin(key, owner, shortened(lease));
        return new Acquisition() {
            @Override
            public StoreLease tryTake() {
                StoreLease granted = acquisition.tryTake();
                return granted == null ? null : new ShortLease(granted);
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
        return "short leases on " + store.describe();
    }

    @Override
    public void close() {
        store.close();
    }

    private static Duration shortened(Duration lease) {
        Duration shortened = lease.dividedBy(SHORTENED_BY);
        return shortened.isZero() ? Duration.ofMillis(1) : shortened;
    }

    private record ShortLease(StoreLease granted) implements StoreLease {

        @Override
        public long fencingToken() {
            return granted.fencingToken();
        }

        @Override
        public boolean extend(Duration lease) {
            return granted.extend(shortened(lease));
        }

        @Override
        public Optional<LockLostException.Reason> checkOwned() {
            return granted.checkOwned();
        }

        @Override
        public boolean release() {
            return granted.release();
        }

        @Override
        public void whenGone(Runnable gone) {
            granted.whenGone(gone);
        }
    }
}
