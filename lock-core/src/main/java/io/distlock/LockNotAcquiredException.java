package io.distlock;

import java.time.Duration;

/**
 * Thrown by the forms that must run work under a lock (the callback methods of {@link Lock} and
 * {@code @DistributedLock} methods) when the lock was held by someone else for the whole wait time. The work did not
 * run.
 */
public class LockNotAcquiredException extends LockException {

    private static final long serialVersionUID = 1L;

    private final Duration waited;

    /**
     * Creates the exception.
     *
     * @param key the lock's key
     * @param waited how long the caller waited before giving up
     */
    public LockNotAcquiredException(String key, Duration waited) {
        super(
                key,
                "Lock '" + key + "' was not acquired within " + waited + "; someone else held it the whole time",
                null);
        this.waited = waited;
    }

    /**
     * Creates the exception for a wait that was interrupted; the caller sets the thread's interrupt status again.
     *
     * @param key the lock's key
     * @param wait the wait that was interrupted
     * @param interrupted the interruption
     */
    public LockNotAcquiredException(String key, Duration wait, InterruptedException interrupted) {
        super(key, "Lock '" + key + "' was not acquired: the thread was interrupted while waiting", interrupted);
        this.waited = wait;
    }

    /**
     * How long the caller waited for the lock.
     *
     * @return the wait time that ran out
     */
    public Duration waited() {
        return waited;
    }
}
