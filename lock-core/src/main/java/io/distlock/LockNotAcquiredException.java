package io.distlock;

import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by the forms that must run work under a lock (the callback methods of {@link Lock} and
 * {@code @DistributedLock} methods) when the lock was held by someone else for the whole wait time. The work did not
 * run.
 */
public class LockNotAcquiredException extends LockException {

    private static final long serialVersionUID = 1L;

    private final Duration waited;
    private final @Nullable String holder;

    /**
     * Creates the exception.
     *
     * @param key the lock's key
     * @param waited how long the caller waited before giving up
     */
    public LockNotAcquiredException(String key, Duration waited) {
        this(key, waited, (String) null);
    }

    /**
     * Creates the exception, naming who held the key when the wait ended.
     *
     * @param key the lock's key
     * @param waited how long the caller waited before giving up
     * @param holder the instance name of the key's holder when the wait ended ({@link
     *     io.distlock.monitor.KeyState#holder()}), or null if the store named none
     */
    public LockNotAcquiredException(String key, Duration waited, @Nullable String holder) {
        super(
                key,
                "Lock '" + key + "' was not acquired within " + waited + "; "
                        + (holder == null
                                ? "someone else held it the whole time"
                                : "it was held by '" + PrintableText.of(holder) + "' when the wait ended"),
                null);
        this.waited = waited;
        this.holder = holder;
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
        this.holder = null;
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
        this.holder = null;
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
        this.holder = null;
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

    /**
     * Who held the key when the wait ended, as the store names holders: the holder's {@code distlock.instance-name}.
     * Empty where the store keeps no names (readers, path locks, a Redlock), the key was free again by the time it was
     * asked, or the exception covers several keys or an interrupted wait.
     *
     * @return the holder's instance name, if known
     */
    public Optional<String> holder() {
        return Optional.ofNullable(holder);
    }
}
