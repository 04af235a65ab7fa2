package io.distlock.tck.fuzz;

import io.distlock.Lease;
import java.time.Duration;
import java.util.SplittableRandom;

/** The lease of one critical section and how long the section works under it. */
public enum LeaseProfile {
    /** A lease far longer than the section: any overlap is a violation. */
    FIXED_LONG("fixed 10 s, tiny section"),
    /** A lease of 15-40 ms and a section of half to one and a half times that: often outlived, then reported lost. */
    FIXED_SHORT("fixed 15-40 ms, section 0.5-1.5x the lease"),
    /**
     * A lease of 15-40 ms and a section that ends 0-8 ms before it: release races the lease's end, where a release that
     * is not atomic deletes the next holder's lock.
     */
    FIXED_TO_THE_END("fixed 15-40 ms, section ends 0-8 ms before the lease"),
    /**
     * As {@link #FIXED_TO_THE_END}, ten times as long: a lease of 150-400 ms and a section that ends 0-80 ms before
     * it. For broken controls, whose release must reach Redis before the lease ends for the race to exist at all: beside
     * a full parallel build, a thread waits tens of milliseconds for a core, and every 15-40 ms lease ran out first.
     */
    FIXED_TO_THE_END_LOADED("fixed 150-400 ms, section ends 0-80 ms before the lease"),
    /** The watchdog's lease, renewed in the background, tiny section. */
    RENEWED("renewed, tiny section"),
    /** The watchdog's lease held across several renewals. */
    RENEWED_HELD("renewed, held 0.6-0.9 s (4+ renewals)");

    /** Short, so that renewals happen every ~130 ms and a held section lives through several of them. */
    static final Duration WATCHDOG_LEASE = Duration.ofMillis(400);

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(10));

    private final String label;

    LeaseProfile(String label) {
        this.label = label;
    }

    /**
     * The lease profile as the report names it.
     *
     * @return its label
     */
    public String label() {
        return label;
    }

    /** Draws the lease and the time the section works under it. */
    Plan plan(SplittableRandom random) {
        return switch (this) {
            case FIXED_LONG -> new Plan(this, LONG, 0);
            case FIXED_SHORT -> {
                long leaseMillis = random.nextLong(15, 41);
                yield new Plan(
                        this,
                        Lease.fixed(Duration.ofMillis(leaseMillis)),
                        random.nextLong(leaseMillis / 2, leaseMillis * 3 / 2 + 1));
            }
            case FIXED_TO_THE_END -> {
                long leaseMillis = random.nextLong(15, 41);
                yield new Plan(this, Lease.fixed(Duration.ofMillis(leaseMillis)), leaseMillis - random.nextLong(0, 9));
            }
            case FIXED_TO_THE_END_LOADED -> {
                long leaseMillis = random.nextLong(150, 401);
                yield new Plan(this, Lease.fixed(Duration.ofMillis(leaseMillis)), leaseMillis - random.nextLong(0, 81));
            }
            case RENEWED -> new Plan(this, Lease.renewed(), 0);
            case RENEWED_HELD -> new Plan(this, Lease.renewed(), random.nextLong(600, 901));
        };
    }

    /** The lease Redis gives a new hold: the fixed duration, or the watchdog lease until the first renewal. */
    static Duration initialLease(Lease lease) {
        return lease.isRenewed() ? WATCHDOG_LEASE : lease.duration();
    }

    /** One drawn section: its lease and how many milliseconds it works while holding the lock. */
    record Plan(LeaseProfile profile, Lease lease, long workMillis) {}
}
