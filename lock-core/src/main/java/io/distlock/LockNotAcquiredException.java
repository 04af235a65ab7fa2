package io.distlock;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

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
     * Creates the exception for several keys that were to be taken all or none; {@link #key()} lists them.
     *
     * @param keys the keys, of which at least one stayed held by someone else
     * @param waited how long the caller waited before giving up
     */
    public LockNotAcquiredException(List<String> keys, Duration waited) {
        super(
                String.join(", ", keys),
                "Locks " + quoted(keys) + " were not all acquired within " + waited
                        + "; someone else held one of them the whole time, and none is held now",
                null);
        this.waited = waited;
    }

    /**
     * Creates the exception for a wait for several keys that was interrupted; the caller sets the thread's interrupt
     * status again.
     *
     * @param keys the keys that were to be taken all or none
     * @param wait the wait that was interrupted
     * @param interrupted the interruption
     */
    public LockNotAcquiredException(List<String> keys, Duration wait, InterruptedException interrupted) {
        super(
                String.join(", ", keys),
                "Locks " + quoted(keys) + " were not acquired: the thread was interrupted while waiting, and none is"
                        + " held now",
                interrupted);
        this.waited = wait;
    }

    private static String quoted(List<String> keys) {
        return keys.stream().map(key -> "'" + key + "'").collect(Collectors.joining(", "));
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
