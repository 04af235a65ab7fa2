package io.distlock.tck.contract;

import io.distlock.Lease;
import java.time.Duration;

/** The leases and waits that the parts of the contract share. */
final class ContractTimes {

    /** Outlasts every test: a key held with it never runs out during one. */
    static final Duration LONG = Duration.ofSeconds(30);

    /** A fixed lease of {@link #LONG}. */
    static final Lease LONG_LEASE = Lease.fixed(LONG);

    /** A wait that ends while the test still runs, for callers expected to give up. */
    static final Duration SHORT_WAIT = Duration.ofMillis(300);

    /**
     * What a bound on a wait allows on top of {@code Lock}'s own 200 ms: the build runs test classes side by side on
     * a machine of two cores, where a thread's wake-up, a JIT compilation or a GC pause can each cost a few hundred
     * milliseconds. The faults the bounded cases catch overshoot by seconds.
     */
    static final Duration LOADED_MACHINE_MARGIN = Duration.ofMillis(800);

    /** How late after its wait a waiting form may end, as {@code Lock}'s javadoc promises. */
    static final Duration PROMISED_LATENESS = Duration.ofMillis(200);

    private ContractTimes() {}
}
