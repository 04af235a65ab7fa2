package io.distlock.store;

import io.distlock.LockBackendException;
import io.distlock.LockLostException;
import java.time.Duration;
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
