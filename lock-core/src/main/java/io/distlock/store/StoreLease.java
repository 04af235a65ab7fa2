package io.distlock.store;

import io.distlock.LockBackendException;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A key that the store granted to one owner. {@link StoreLock} calls its methods from any thread, one at a time.
 */
public interface StoreLease {

    /**
     * The fencing token of this grant: larger than every token granted on the same key before it, on any client.
     *
     * @return the token, at least 1
     */
    long fencingToken();

    /**
     * Sets the lease to run {@code lease} from now, on the store's clock, if this owner still holds the key.
     *
     * @param lease the new lease, at least 1 ms
     * @return false if the key is no longer this owner's (its lease ran out and maybe another owner took it)
     * @throws LockBackendException if the store could not be asked; the lease is unchanged or moved, unknown which
     */
    boolean extend(Duration lease);

    /**
     * Asks the store, changing nothing, whether the key is still this owner's: the grant is current and its lease has
     * not run out on the store's clock. {@link StoreLock} asks before a nested acquisition joins the hold, since {@link
     * io.distlock.Lock} lets one succeed only after the store confirms the hold, and reports the hold lost when the
     * answer names a reason. One read of the store is all it takes; a store that already knows the grant is gone
     * answers without asking.
     *
     * <p>{@link StoreLock} calls it on a worker thread and waits for the answer as long as for any other store call:
     * within the caller's wait, and at most the store's {@linkplain LeaseStore#callTimeout() call timeout}. An answer
     * that comes after the caller gave up still counts for the hold.
     *
     * @return empty while the key is this owner's; otherwise why it is not: {@link LockLostException.Reason#KEY_GONE}
     *     when the key was removed or taken over or its lease ran out on the store's clock, or the reason that the
     *     store reported or is about to report through {@link #whenGone(Consumer)}
     * @throws LockBackendException if the store could not be asked; whether the key is still this owner's is unknown
     */
    Optional<LockLostException.Reason> checkOwned();

    /**
     * Removes the key if this owner still holds it.
     *
     * @return false if the key was no longer this owner's, so nothing was removed
     * @throws LockBackendException if the store could not be asked; the key may still be held until its lease runs out
     */
    boolean release();

    /**
     * Registers a callback that the store runs, once, when it learns by itself that the grant is gone, for example
     * because a coordination session expired. Stores that learn of a loss only when asked keep the default, which
     * does nothing: {@link StoreLock}'s renewals and lease timers find the loss then.
     *
     * @param gone run at most once, on a thread of the store, after which {@link #extend} and {@link #release} return
     *     false
     */
    default void whenGone(Runnable gone) {}

    /**
     * Registers a callback as {@link #whenGone(Runnable)} does, which also learns why the grant is gone. {@link
     * StoreLock} registers this one. Stores that know only that the key is gone keep the default, which reports {@link
     * LockLostException.Reason#KEY_GONE} through {@link #whenGone(Runnable)}.
     *
     * @param gone run at most once, on a thread of the store, with the reason: {@link
     *     LockLostException.Reason#KEY_GONE} when the key was removed, {@link
     *     LockLostException.Reason#CONNECTION_SUSPENDED} when the connection broke and the store cannot tell
     */
    default void whenGone(Consumer<LockLostException.Reason> gone) {
        whenGone(() -> gone.accept(LockLostException.Reason.KEY_GONE));
    }
}
