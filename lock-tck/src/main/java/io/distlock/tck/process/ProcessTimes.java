package io.distlock.tck.process;

import io.distlock.Lease;
import java.time.Duration;

/** The leases, bounds and waits of the contract's processes. */
final class ProcessTimes {

    /** The watchdog lease of every lock the contract builds: short, so that a dead holder's renewed hold ends soon. */
    static final Duration WATCHDOG_LEASE = Duration.ofSeconds(2);

    /**
     * The longest time between two renewals that the contract allows ({@link ProcessLockFactory#open}): a third of the
     * watchdog lease, the builders' default. A renewed hold whose holder dies is kept at least this much less than a
     * watchdog lease after the death.
     */
    static final Duration RENEW_INTERVAL = WATCHDOG_LEASE.dividedBy(3);

    /** The fixed lease of a holder that dies. */
    static final Duration FIXED_LEASE = Duration.ofSeconds(3);

    /**
     * How much earlier than its lease promises a dead holder's key may be free: the way of the holder's ready line
     * from the store's grant to the test (the store's reply, the child's printing, the pipe, the test's drain thread),
     * a renewal that a busy child made late, and the store's clock. A lock that lets the key go at the holder's death
     * frees it within a few hundred milliseconds of the kill, seconds before this bound.
     */
    static final Duration EARLY_MARGIN = Duration.ofMillis(600);

    /**
     * How much later than its lease promises a dead holder's key may be taken: the store's expiry, the waiter's
     * wake-up and its round trip on a machine of two cores busy with a whole build, where the test JVM can stall for
     * seconds while other JVMs start on the same core (3.4 s once, on one core). A key that is never freed, or only
     * at a poll that comes seconds late, overshoots it, and so does a fixed lease kept twice as long.
     */
    static final Duration LATE_SLACK = Duration.ofMillis(2500);

    /** A fixed lease that outlasts every case: the test JVM's acquisitions and the counters' sections. */
    static final Lease LONG_LEASE = Lease.fixed(Duration.ofSeconds(30));

    /**
     * How long an acquisition that must succeed may wait: a first one that connects on a busy machine, or a counter's
     * turn behind the others. Never reached unless the lock is broken.
     */
    static final Duration ACQUIRE_WAIT = Duration.ofMinutes(1);

    private ProcessTimes() {}
}
