package io.distlock.tck.fuzz;

/**
 * The fuzz's independent witness of critical sections, as a worker calls it: every section a worker enters under a
 * lock is judged and recorded by the parent's {@link Witness}, on a connection apart from the lock's, from the state of
 * its lock key read just before ({@link Judgements}). The judgements are the parent's ledger's: {@link KeyLedger} for
 * keys, {@link PathLedger} for the paths of a tree.
 */
final class Checker {

    private final Ledger witness;
    private final Judgements judgements;

    /** A checker that reports to {@code witness} what it reads through {@code lockView}. */
    Checker(Ledger witness, LockView lockView) {
        this.witness = witness;
        this.judgements = new Judgements(witness, lockView);
    }

    /** What the checker saw when a section entered. */
    enum Entry {
        /** The lock key was the holder's; the section claimed it. */
        CLAIMED,
        /** The lock key was not the holder's any more: the lease may have run out between acquisition and entry. */
        NOT_OWNED,
        /** Another section was inside, the fencing token went backwards, or the lock was taken early. */
        VIOLATION;

        static Entry of(int verdict) {
            return switch (verdict) {
                case Ledger.OWN -> CLAIMED;
                case Ledger.NOT_OWN -> NOT_OWNED;
                default -> VIOLATION;
            };
        }
    }

    /** What the checker saw at a checkpoint or exit of a section, from best to worst. */
    enum State {
        /** The lock key is still the holder's. */
        HELD,
        /** The lock key is not the holder's any more, and its claim and lease may have run out. */
        LOST,
        /** The lock key is not the holder's although its lease is certainly still alive. */
        VIOLATION;

        static State of(int verdict) {
            return switch (verdict) {
                case Ledger.OWN -> HELD;
                case Ledger.NOT_OWN -> LOST;
                default -> VIOLATION;
            };
        }
    }

    /** Records that the section entered, right after its lock was acquired. */
    void enter(Section section) {
        section.entered(Entry.of(judgements.enter(section)));
    }

    /** Checks, in the middle of a section, that its lock is still its own. */
    void check(Section section) {
        section.checked(State.of(judgements.checkpoint(section, Ledger.Checkpoint.CHECK)));
    }

    /** Checks like {@link #check} and extends the claim to the lock's current lease, for auto-renewed sections. */
    void refresh(Section section) {
        section.checked(State.of(judgements.checkpoint(section, Ledger.Checkpoint.REFRESH)));
    }

    /**
     * Records that the section exited, before its lock is released. A section whose lock key could not be read only
     * removes its claim: left behind, the claim would outlive the release and count the next holder as an overlap.
     */
    void exit(Section section) {
        if (!section.unreadable()) {
            try {
                section.checked(State.of(judgements.checkpoint(section, Ledger.Checkpoint.EXIT)));
                return;
            } catch (LockView.Unreadable e) {
                witness.leave(Claimant.of(section));
                throw e;
            }
        }
        witness.leave(Claimant.of(section));
    }

    /** Notes that an acquisition of {@code key} was refused, which tells the witness of paths who was inside. */
    void refused(String key) {
        witness.refused(key);
    }

    /** The checker could not reach its witness; its records may miss a section, so the run cannot be trusted. */
    static final class CheckerFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        CheckerFailure(Throwable cause) {
            super("a call to the checker's witness failed: " + cause.getMessage(), cause);
        }
    }
}
