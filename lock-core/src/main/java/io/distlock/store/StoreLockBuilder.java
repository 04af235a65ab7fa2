package io.distlock.store;

import io.distlock.Lease;
import io.distlock.monitor.LockObserver;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Builds a {@link StoreLock}; every setting has a default, and {@link #build()} checks them together. */
public final class StoreLockBuilder {

    final LeaseStore store;
    Duration watchdogLease = Duration.ofSeconds(30);
    private @Nullable Duration renewInterval;
    Duration shutdownGracePeriod = Duration.ofSeconds(10);
    LockObserver observer = LockObserver.NONE;
    int maxCallsUnderWay = 256;

    @Nullable
    Duration maxHold;

    StoreLockBuilder(LeaseStore store) {
        if (store == null) {
            throw new IllegalArgumentException("store must not be null");
        }
        this.store = store;
    }

    /**
     * The lease that {@link Lease#renewed()} sets in the store, and each renewal sets again: how long a key outlives a
     * holder that died. Default 30 s.
     *
     * @param watchdogLease from 100 ms to {@link Lease#MAX_FIXED}
     * @return this builder
     */
    public StoreLockBuilder watchdogLease(Duration watchdogLease) {
        this.watchdogLease = watchdogLease;
        return this;
    }

    /**
     * How often a renewed lease is renewed. Default a third of the watchdog lease.
     *
     * @param renewInterval positive and shorter than the watchdog lease
     * @return this builder
     */
    public StoreLockBuilder renewInterval(Duration renewInterval) {
        this.renewInterval = renewInterval;
        return this;
    }

    /**
     * The longest time a {@linkplain Lease#renewed() renewed} lease is kept alive: past it, renewals stop, the lease runs
     * out in the store within the watchdog lease, and the holder is then told it lost the key ({@link
     * io.distlock.LockLostException.Reason#MAX_HOLD_REACHED}), as if it had died. It bounds how long a holder that hung
     * keeps the key from everyone else. Fixed leases and explicit {@code extend} calls are not bounded by it. Default
     * none: a live holder is renewed for as long as it holds.
     *
     * @param maxHold longer than the watchdog lease, or null for none
     * @return this builder
     */
    public StoreLockBuilder maxHold(@Nullable Duration maxHold) {
        this.maxHold = maxHold;
        return this;
    }

    /**
     * How long {@link StoreLock#close()} waits for held keys to be released before it reports them lost. Default 10 s.
     *
     * @param shutdownGracePeriod zero or positive
     * @return this builder
     */
    public StoreLockBuilder shutdownGracePeriod(Duration shutdownGracePeriod) {
        this.shutdownGracePeriod = shutdownGracePeriod;
        return this;
    }

    /**
     * Where acquisitions, holds and renewals are reported, for metrics and tracing. Default {@link LockObserver#NONE}.
     *
     * @param observer the observer
     * @return this builder
     */
    public StoreLockBuilder observer(LockObserver observer) {
        if (observer == null) {
            throw new IllegalArgumentException("observer must not be null; use LockObserver.NONE for none");
        }
        this.observer = observer;
        return this;
    }

    /**
     * The most store calls that this lock's waiting acquisitions (and the store checks of nested ones) have under way
     * at once, each on a worker thread. A call whose caller gave up at its deadline still counts until the store
     * answers it, so a store that stopped answering cannot make the lock start a thread per attempt without end; past
     * the bound, an acquisition fails at once with {@link io.distlock.LockBackendException}, without asking the store.
     * Renewals, releases and tries without a wait are not counted. Default 256.
     *
     * @param maxCallsUnderWay at least 1
     * @return this builder
     */
    public StoreLockBuilder maxCallsUnderWay(int maxCallsUnderWay) {
        this.maxCallsUnderWay = maxCallsUnderWay;
        return this;
    }

    /**
     * Builds the lock.
     *
     * @return the lock, which owns the store from now on
     * @throws IllegalArgumentException naming the setting that is out of range and what is allowed
     */
    public StoreLock build() {
        if (watchdogLease == null
                || watchdogLease.compareTo(Duration.ofMillis(100)) < 0
                || watchdogLease.compareTo(Lease.MAX_FIXED) > 0) {
            throw new IllegalArgumentException(
                    "watchdog lease must be from 100 ms to " + Lease.MAX_FIXED + ", but was " + watchdogLease);
        }
        Duration interval = effectiveRenewInterval();
        if (interval.isZero() || interval.isNegative() || interval.compareTo(watchdogLease) >= 0) {
            throw new IllegalArgumentException("renew interval must be positive and shorter than the watchdog lease ("
                    + watchdogLease + "), but was " + interval);
        }
        if (shutdownGracePeriod == null || shutdownGracePeriod.isNegative()) {
            throw new IllegalArgumentException(
                    "shutdown grace period must be zero or positive, but was " + shutdownGracePeriod);
        }
        if (maxHold != null && maxHold.compareTo(watchdogLease) <= 0) {
            throw new IllegalArgumentException("max hold must be longer than the watchdog lease (" + watchdogLease
                    + "), or null for none, but was " + maxHold);
        }
        if (maxCallsUnderWay < 1) {
            throw new IllegalArgumentException("max calls under way must be at least 1, but was " + maxCallsUnderWay);
        }
        return new StoreLock(this);
    }

    Duration effectiveRenewInterval() {
        return renewInterval != null ? renewInterval : watchdogLease.dividedBy(3);
    }
}
