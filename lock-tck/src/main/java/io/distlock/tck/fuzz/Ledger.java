package io.distlock.tck.fuzz;

import java.util.Locale;

/**
 * The witness's judgements of critical sections, as a worker's {@link Checker} asks for them: in the parent JVM they
 * are a {@link RunLedger}'s, in a worker a {@link WitnessClient}'s calls to it. Each judgement takes the section's lock
 * key as the worker read it just before ({@link HolderRead}), and answers a verdict.
 */
interface Ledger {

    /** Verdict: the lock key was the holder's; entering, the section claimed it. */
    int OWN = 1;

    /** Verdict: the lock key was not the holder's any more, and its lease may have run out. */
    int NOT_OWN = 0;

    /** Verdict: another section was inside, a fencing token went backwards, or the lock was taken early. */
    int VIOLATION = -1;

    /**
     * Verdict: the read is too old to judge by, since the section's own lease as read has 2 ms or less left by the
     * witness's clock; the worker reads again once that lease has ended.
     */
    int STALE = -2;

    /** Judges a section entering, right after its lock was acquired, and claims the key for it. */
    int enter(Claimant section, HolderRead read);

    /** Judges a section at a checkpoint, in its middle or at its exit. */
    int checkpoint(Claimant section, Checkpoint checkpoint, HolderRead read);

    /** Removes the section's claim, if it still has one, without judging anything. */
    void leave(Claimant section);

    /** Notes that an acquisition of {@code key} was refused, for a ledger that learns something from that. */
    void refused(String key);

    /**
     * Records that the section's lock was not the holder's at {@code when} although, by the holder's own clock, its
     * lease could not have run out yet.
     */
    void takenEarly(Claimant section, String when);

    /** A judgement in the course of a section after its entry. */
    enum Checkpoint {
        /** In the middle of a section, to see that its lock is still its own. */
        CHECK,
        /** As {@link #CHECK}, extending the claim to the lock's current lease, for auto-renewed sections. */
        REFRESH,
        /** At the section's exit, before its lock is released: the claim ends. */
        EXIT;

        /** How a violation's description names the moment. */
        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
