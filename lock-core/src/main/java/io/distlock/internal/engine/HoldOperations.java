package io.distlock.internal.engine;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * What a {@link HoldHandle} asks of its backend about the hold it is a handle on: one grant of a key to one owner,
 * which the handles of that owner's re-entries share. A backend's registry of holds implements it; the handle keeps
 * what is each handle's own (its lease, and whether it was released). For lock implementations; applications use
 * {@link io.distlock.LockHandle}.
 *
 * @param <H> the backend's hold
 */
public interface HoldOperations<H extends HeldKey> {

    /**
     * Whether a hold still owns its key, asking the store if the backend's answer depends on it.
     *
     * @param hold the hold
     * @return false once the hold was released or lost
     * @throws LockBackendException if the store could not be asked
     */
    boolean isHeld(H hold);

    /**
     * How much of a hold's lease is left.
     *
     * @param hold the hold
     * @return the remaining lease, or {@link Duration#ZERO} once the hold no longer owns its key
     * @throws LockBackendException if the store could not be asked
     */
    Duration remainingLease(H hold);

    /**
     * Sets a hold's remaining lease, as {@link io.distlock.LockHandle#extend} describes.
     *
     * @param hold the hold
     * @param lease the new remaining lease
     * @throws IllegalArgumentException if the lease is out of range
     * @throws LockLostException if the hold was lost
     * @throws LockBackendException if the store could not be asked
     */
    void extend(H hold, Duration lease);

    /**
     * Whether a hold is known to have lost its key, without asking the store.
     *
     * @param hold the hold
     * @return true once the loss is known
     */
    boolean isLost(H hold);

    /**
     * Registers a callback for the loss of a hold, as {@link io.distlock.LockHandle#onLost} describes.
     *
     * @param hold the hold
     * @param callback not null; runs once, on a thread of the backend's
     */
    void onLost(H hold, Consumer<LockLostException> callback);

    /**
     * Ends one handle of a hold; the last one releases the key in the store.
     *
     * @param hold the hold
     * @param handleLease the lease the ending handle asked for
     * @throws LockLostException if the hold was lost
     * @throws LockBackendException if the store could not be asked
     */
    void release(H hold, Lease handleLease);

    /**
     * Ends one handle of a hold like {@link #release}, but the last one leaves the key owned in the store for {@code
     * rest} from now, as {@link io.distlock.LockHandle#releaseHoldingAtLeast} describes, instead of deleting it: the
     * hold is no longer renewed and is forgotten, its key's remaining lease becomes {@code rest} on the store's clock,
     * and no waiter of this instance is handed the key before it runs out.
     *
     * @param hold the hold
     * @param handleLease the lease the ending handle asked for
     * @param rest how long the key stays held from now, at least 1 ms
     * @throws LockLostException if the hold was lost
     * @throws LockBackendException if the store could not be asked; the key then runs out with the lease it had
     */
    void releaseHolding(H hold, Lease handleLease, Duration rest);

    /**
     * Ends one handle of a hold like {@link #release}, without blocking the calling thread.
     *
     * @param hold the hold
     * @param handleLease the lease the ending handle asked for
     * @return a stage that completes on a thread of the backend's, never on one of the store client's, so that
     *     dependent stages may block; it fails as {@link #release} throws
     */
    CompletionStage<Void> releaseAsync(H hold, Lease handleLease);

    /**
     * Forgets one handle of a hold that the garbage collector found unreleased. Nothing is sent to the store, since the
     * work that took the lock may still run: after the last handle, the key runs out with its lease.
     *
     * @param hold the hold
     * @param handleLease the lease the dropped handle asked for
     */
    void dropped(H hold, Lease handleLease);
}
