package io.distlock.spi;

import io.distlock.Lease;
import io.distlock.monitor.LockObserver;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The settings that every distlock engine shares, whatever its store: how renewed leases are kept, how long closing
 * waits, and who hears what the lock does. A backend's builder adds the settings of its own store and builds the lock;
 * its {@code build()} checks these settings together through {@link #holdSettings()}.
 *
 * @param <B> the backend's builder, which every setter returns
 */
public abstract class LockBuilder<B extends LockBuilder<B>> {

    private static final Duration SHORTEST_WATCHDOG_LEASE = Duration.ofMillis(100);

    private @Nullable Duration watchdogLease = Duration.ofSeconds(30);
    private @Nullable Duration renewInterval;
    private @Nullable Duration maxHold;
    private @Nullable Duration shutdownGracePeriod = Duration.ofSeconds(10);
    private LockObserver observer = LockObserver.NONE;
    private @Nullable String instanceName;

    /** For a backend's builder. */
    protected LockBuilder() {}

    /**
     * Sets the lease that a {@linkplain Lease#renewed() renewed} acquisition sets in the store, and each renewal sets
     * again: how long a key outlives a holder that died.
     *
     * @param watchdogLease from 100 ms to {@link Lease#MAX_FIXED}; default 30 s
     * @return this builder
     */
    public final B watchdogLease(Duration watchdogLease) {
        this.watchdogLease = watchdogLease;
        return self();
    }

    /**
     * Sets how often renewed leases are renewed.
     *
     * @param renewInterval positive and shorter than the watchdog lease; default a third of it
     * @return this builder
     */
    public final B renewInterval(Duration renewInterval) {
        this.renewInterval = renewInterval;
        return self();
    }

    /**
     * Sets the longest time a {@linkplain Lease#renewed() renewed} lease is kept alive: past it, renewals stop, the
     * lease runs out in the store within the watchdog lease, and the holder is then told it lost the key ({@link
     * io.distlock.LockLostException.Reason#MAX_HOLD_REACHED}), as if it had died. It bounds how long a holder that hung
     * keeps the key from everyone else. Fixed leases and explicit {@code extend} calls are not bounded by it.
     *
     * @param maxHold longer than the watchdog lease, or null for none; default none: a live holder is renewed for as
     *     long as it holds
     * @return this builder
     */
    public final B maxHold(@Nullable Duration maxHold) {
        this.maxHold = maxHold;
        return self();
    }

    /**
     * Sets how long closing the lock keeps renewing and waits for held keys to be released before it reports them
     * lost.
     *
     * @param shutdownGracePeriod zero or positive; default 10 s
     * @return this builder
     */
    public final B shutdownGracePeriod(Duration shutdownGracePeriod) {
        this.shutdownGracePeriod = shutdownGracePeriod;
        return self();
    }

    /**
     * Sets what hears the lock's acquisitions, holds, renewals and handovers, such as distlock's Micrometer binding.
     * Nothing the observer throws reaches the lock: it is logged.
     *
     * @param observer the observer; {@link LockObserver#NONE}, the default, hears nothing
     * @return this builder
     * @throws IllegalArgumentException if the observer is null
     */
    public final B observer(LockObserver observer) {
        if (observer == null) {
            throw new IllegalArgumentException("observer must not be null; use LockObserver.NONE for none");
        }
        this.observer = observer;
        return self();
    }

    /**
     * Sets the name stored with every hold this lock takes, which others see as the key's holder ({@link
     * io.distlock.monitor.KeyState#holder()}, the Actuator endpoint, {@link io.distlock.LockNotAcquiredException}).
     * Give each running instance a name of its own, such as the application's name and the host's.
     *
     * @param instanceName 1 to {@value InstanceNames#MAX_LENGTH} printable characters without {@code +} or {@code *};
     *     default {@code pid@host} ({@link InstanceNames#ofThisProcess})
     * @return this builder
     */
    public final B instanceName(String instanceName) {
        this.instanceName = instanceName;
        return self();
    }

    /**
     * Checks the shared settings together, for a backend's {@code build()}.
     *
     * @return the settings, valid together
     * @throws IllegalArgumentException naming the setting that is out of range and what is allowed
     */
    protected final HoldSettings holdSettings() {
        Duration lease = watchdogLease;
        if (lease == null || lease.compareTo(SHORTEST_WATCHDOG_LEASE) < 0 || lease.compareTo(Lease.MAX_FIXED) > 0) {
            throw new IllegalArgumentException(
                    "watchdog lease must be from 100 ms to " + Lease.MAX_FIXED + ", but was " + lease);
        }
        Duration interval = renewInterval != null ? renewInterval : lease.dividedBy(3);
        if (interval.isZero() || interval.isNegative() || interval.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("renew interval must be positive and shorter than the watchdog lease ("
                    + lease + "), but was " + interval);
        }
        if (maxHold != null && maxHold.compareTo(lease) <= 0) {
            throw new IllegalArgumentException("max hold must be longer than the watchdog lease (" + lease
                    + "), or null for none, but was " + maxHold);
        }
        Duration grace = shutdownGracePeriod;
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("shutdown grace period must be zero or positive, but was " + grace);
        }
        String name = instanceName == null ? InstanceNames.ofThisProcess(null) : InstanceNames.check(instanceName);
        return new HoldSettings(lease, interval, maxHold, grace, observer, name);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
