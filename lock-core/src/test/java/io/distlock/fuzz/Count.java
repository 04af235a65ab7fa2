package io.distlock.fuzz;

/** What a fuzz worker counts besides acquisitions; each worker process reports all of them in its summary line. */
enum Count {
    /** The lock was busy for the whole wait (or the one try). */
    NOT_ACQUIRED(false),
    /** The lease ran out between acquisition and entry into the section. */
    LOST_BEFORE_ENTRY(false),
    /** The lease ran out inside the section and the holder was told: release, callWithLock or re-entry threw. */
    LOST_DETECTED(false),
    /** The lease ran out after the section exited, before release; release said so. */
    LOST_AFTER_SECTION(false),
    /** A lost section whose handle still said {@code isLost() == false} when the section ended. */
    LOSS_NOT_YET_SEEN_BY_IS_LOST(false),
    /** Auto-renewed sections held across several renewals to the end. */
    RENEWED_HELD_KEPT(false),
    /** Auto-renewed sections that lost their lock (renewals came too late); the holder was told. */
    RENEWED_LOST(false),
    /** Redis did not answer the lock in time (LockBackendException); the operation was skipped. */
    BACKEND_ERRORS(false),
    /** The checker's own Redis calls failed; its records may then be incomplete. */
    CHECKER_ERRORS(false),
    /** Any other exception from the lock; each is printed. */
    UNEXPECTED_ERRORS(false),
    /** Worker threads still busy long after the run ended; their stacks are printed. */
    HUNG_THREADS(false),
    /** Overlap, early takeover or fencing violations that this process's sections ran into. */
    CHECKER_VIOLATIONS_SEEN(true),
    /** A section's lease ran out, yet its release (or callWithLock) returned normally. */
    UNDETECTED_LOSS(true),
    /** A nested acquisition by the holder was refused or got another fencing token. */
    REENTRY_FAILED(true);

    private final boolean violation;

    Count(boolean violation) {
        this.violation = violation;
    }

    boolean isViolation() {
        return violation;
    }
}
