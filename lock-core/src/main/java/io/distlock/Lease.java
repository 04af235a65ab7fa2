package io.distlock;

import java.time.Duration;
import java.util.Objects;

/**
 * How long an acquisition may hold its lock before the store frees it on its own, so that a crashed holder never blocks
 * anyone for longer than its lease.
 *
 * <p>A {@linkplain #fixed(Duration) fixed} lease expires when it says, whatever the holder is doing; the holder learns
 * that it ran out through {@link LockHandle#isLost()}. An {@linkplain #renewed() auto-renewed} lease is short and is
 * extended in the background for as long as the lock is held, so a live holder keeps its lock and a dead one loses it
 * within one such lease.
 */
public final class Lease {

    /** The longest fixed lease accepted: longer leases defeat the purpose of a lease; renew instead. */
    public static final Duration MAX_FIXED = Duration.ofDays(1);

    private static final Lease RENEWED = new Lease(null);

    private final Duration duration;

    private Lease(Duration duration) {
        this.duration = duration;
    }

    /**
     * A lease that expires after {@code duration} unless extended with {@link LockHandle#extend(Duration)}.
     *
     * @param duration how long the lock is held at most, from 1 ms to {@link #MAX_FIXED}; counted by the store
     * @return the lease
     * @throws IllegalArgumentException if {@code duration} is null, shorter than 1 ms or longer than {@link #MAX_FIXED}
     */
    public static Lease fixed(Duration duration) {
        if (duration == null) {
            throw new IllegalArgumentException("lease must not be null; use Lease.renewed() for an auto-renewed lease");
        }
        if (duration.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("lease must be at least 1 ms, but was " + duration);
        }
        if (duration.compareTo(MAX_FIXED) > 0) {
            throw new IllegalArgumentException("lease must be at most " + MAX_FIXED + " (1 day), but was " + duration
                    + "; use Lease.renewed() for work of unknown length");
        }
        return new Lease(Duration.ofMillis(duration.toMillis()));
    }

    /**
     * A short lease that the lock's renewer extends in the background until the handle is released or the lock is lost.
     * Its length is set on the lock implementation (the watchdog lease).
     *
     * @return the auto-renewed lease
     */
    public static Lease renewed() {
        return RENEWED;
    }

    /**
     * Tells whether this lease is renewed in the background.
     *
     * @return true for {@link #renewed()}, false for a {@linkplain #fixed(Duration) fixed} lease
     */
    public boolean isRenewed() {
        return duration == null;
    }

    /**
     * The length of a fixed lease, in whole milliseconds.
     *
     * @return the fixed duration
     * @throws IllegalStateException if this lease is {@linkplain #isRenewed() renewed}
     */
    public Duration duration() {
        if (duration == null) {
            throw new IllegalStateException("an auto-renewed lease has no fixed duration");
        }
        return duration;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Lease lease && Objects.equals(duration, lease.duration);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(duration);
    }

    @Override
    public String toString() {
        return duration == null ? "Lease.renewed()" : "Lease.fixed(" + duration + ")";
    }
}
