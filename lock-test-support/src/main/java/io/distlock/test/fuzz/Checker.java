package io.distlock.test.fuzz;

/**
 * The fuzz's independent witness of critical sections: it records in Redis, on a connection of its own, every section
 * a worker enters under a lock, and judges whether another section was inside in a way the lock forbids. Keys are
 * judged by {@link SectionChecker}, paths of a tree by {@link PathChecker}.
 */
interface Checker {

    /** What the checker saw when a section entered. */
    enum Entry {
        /** The lock key was the holder's; the section claimed it. */
        CLAIMED,
        /** The lock key was not the holder's any more: the lease may have run out between acquisition and entry. */
        NOT_OWNED,
        /** Another section was inside, the fencing token went backwards, or the lock was taken early. */
        VIOLATION;

        static Entry of(int code) {
            return switch (code) {
                case 1 -> CLAIMED;
                case 0 -> NOT_OWNED;
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

        static State of(int code) {
            return switch (code) {
                case 1 -> HELD;
                case 0 -> LOST;
                default -> VIOLATION;
            };
        }
    }

    /** Records that the section entered, right after its lock was acquired. */
    void enter(Section section);

    /** Checks, in the middle of a section, that its lock is still its own. */
    default void check(Section section) {
        section.checked(checkpoint(section, "check"));
    }

    /** Checks like {@link #check} and extends the claim to the lock's current lease, for auto-renewed sections. */
    default void refresh(Section section) {
        section.checked(checkpoint(section, "refresh"));
    }

    /**
     * Records that the section exited, before its lock is released. A section whose lock key could not be read only
     * removes its claim: left behind, the claim would outlive the release and count the next holder as an overlap.
     */
    default void exit(Section section) {
        if (!section.unreadable()) {
            try {
                section.checked(checkpoint(section, "exit"));
                return;
            } catch (LockView.Unreadable e) {
                leave(section);
                throw e;
            }
        }
        leave(section);
    }

    /**
     * Judges the section at a checkpoint of one {@code mode}, {@code check}, {@code refresh} or {@code exit}, with the
     * checker's own script.
     */
    State checkpoint(Section section, String mode);

    /** Removes the section's claim without judging it. */
    void leave(Section section);

    /**
     * Notes that an acquisition of {@code key} was refused. Only a checker that learns something from a refusal, such
     * as which other claim was alive then, records it.
     */
    default void refused(String key) {}

    /** The checker could not reach its Redis; its records may miss a section, so the run cannot be trusted. */
    final class CheckerFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        CheckerFailure(Throwable cause) {
            super("the checker's Redis call failed: " + cause.getMessage(), cause);
        }
    }
}
