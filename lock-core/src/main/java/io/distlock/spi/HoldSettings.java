package io.distlock.spi;

import io.distlock.Lease;
import io.distlock.monitor.LockObserver;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a lock's holds, checked together by {@link LockBuilder}: an engine resolves every lease it sends to
 * its store here, once, where the call enters.
 *
 * @param watchdogLease the lease a renewed acquisition sets, and each renewal sets again
 * @param renewInterval how often renewed leases are renewed; shorter than the watchdog lease
 * @param maxHold how long a renewed lease is renewed at most, or null for as long as it is held
 * @param shutdownGracePeriod how long closing waits for held keys to be released
 * @param observer what hears the lock's work
 * @param instanceName the name stored with every hold, which others see as the holder ({@link InstanceNames})
 */
public record HoldSettings(
        Duration watchdogLease,
        Duration renewInterval,
        @Nullable Duration maxHold,
        Duration shutdownGracePeriod,
        LockObserver observer,
        String instanceName) {

    /**
     * The lease to set in the store for an acquisition that asked for {@code lease}: the watchdog lease for a renewed
     * one, its own duration for a fixed one.
     *
     * @param lease what the caller asked for
     * @return the lease the store counts
     */
    public Duration storeLease(Lease lease) {
        return lease.isRenewed() ? watchdogLease : lease.duration();
    }

    /**
     * Whether a renewed hold acquired at {@code acquiredNanos} of {@link System#nanoTime()} was held for the maximum
     * hold: renewals stop then. The maximum is measured on this process's clock, but only to decide when to stop
     * renewing: the lease that then runs out is the store's.
     *
     * @param acquiredNanos when the hold was acquired, by {@link System#nanoTime()}
     * @return whether its renewals must stop
     */
    public boolean pastMaxHold(long acquiredNanos) {
        return maxHold != null && System.nanoTime() - acquiredNanos - maxHold.toNanos() >= 0;
    }
}
