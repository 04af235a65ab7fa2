package io.distlock.tck.fuzz;

/**
 * What a fuzz worker counts besides acquisitions; each worker process reports all of them in its summary line, and
 * {@link Totals#get} adds them up.
 */
public enum Count {
    /** The lock was busy for the whole wait (or the one try). */
    NOT_ACQUIRED,
    /** The lease ran out between acquisition and entry into the section. */
    LOST_BEFORE_ENTRY,
    /**
     * The grant reached the holder after its lease had run out, so {@code callWithLock} did not start the work and
     * threw the loss; not an acquisition, since no section ran.
     */
    LOST_AT_GRANT,
    /** The lease ran out inside the section and the holder was told: release, callWithLock or re-entry threw. */
    LOST_DETECTED,
    /** The lock was still the holder's when the section exited, but release reported it lost: the lease ended since. */
    LOST_AFTER_SECTION,
    /** A lost section whose handle still said {@code isLost() == false} when the section ended. */
    LOSS_NOT_YET_SEEN_BY_IS_LOST,
    /** Auto-renewed sections held across several renewals to the end. */
    RENEWED_HELD_KEPT,
    /** Auto-renewed sections that lost their lock (renewals came too late); the holder was told. */
    RENEWED_LOST,
    /** The lock's store did not answer in time (LockBackendException); the operation was skipped. */
    BACKEND_ERRORS,
    /**
     * The checker's read of a lock key failed, as while a cluster master is down, and was repeated until it answered:
     * the section was judged by what the master's successor had ({@link LockView.Counts#readWaited()}).
     */
    LOCK_READ_WAITED,
    /**
     * A node of several, such as a Redlock node, did not answer the checker's read of a lock key, as after it was
     * killed: the node counted as possibly holding the key for anyone ({@link LockView.Counts#nodeUnanswered()}).
     */
    NODE_READ_FAILED,
    /** The checker could not read a lock key even after waiting; the section went unchecked from there on. */
    LOCK_UNREADABLE,
    /** The checker's calls to its witness failed; its records may then be incomplete. */
    CHECKER_ERRORS,
    /** Any other exception from the lock; each is printed. */
    UNEXPECTED_ERRORS,
    /** Worker threads still busy long after the run ended; their stacks are printed. */
    HUNG_THREADS,
    /** Overlap, early takeover or fencing violations that this process's sections ran into. */
    CHECKER_VIOLATIONS_SEEN,
    /** A section's lease ran out, yet its release (or callWithLock) returned normally. */
    UNDETECTED_LOSS,
    /** A nested acquisition by the holder was refused or got another fencing token. */
    REENTRY_FAILED
}
