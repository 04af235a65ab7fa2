package io.distlock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * One acquisition of a lock. Release it exactly once, preferably with try-with-resources:
 *
 * <pre>{@code
 * try (LockHandle held = lock.acquire("stock:" + sku, Lease.fixed(Duration.ofSeconds(10)))) {
 *     deduct(sku, held.fencingToken());
 * }
 * }</pre>
 *
 * <p>A handle is not tied to the thread that acquired it: any thread may release or extend it, so it can be handed to
 * a thread pool, a {@code CompletableFuture} stage or a virtual thread.
 *
 * <p>Nested acquisitions inside a scope that holds the key share one hold in the store (see {@link Lock} for when an
 * acquisition re-enters): each has its own handle, with its own lease, and the lock is released in the store when the
 * last of these handles is released, in whatever order.
 *
 * <p>A handle that becomes unreachable without being released is no longer renewed once the garbage collector finds it,
 * with a warning in the log; nothing is released in the store, so its key expires with its lease, as a dead holder's
 * would. Keep a handle for as long as the work runs, and always release it.
 *
 * <p>A handle can learn that its lock was lost (the lease ran out, or another owner holds the key): {@link #isLost()}
 * answers without asking the store, {@link #onLost(Consumer)} calls back once when it happens, and {@link #release()}
 * reports it with a {@link LockLostException}.
 */
public interface LockHandle extends AutoCloseable {

    /**
     * The lock's key, as the application named it.
     *
     * @return the key, without the implementation's prefix
     */
    String key();

    /**
     * A number that is greater than that of every earlier acquisition of this key, in any process, as long as the store
     * keeps its data (a failover to a replica that missed the latest writes, or a restart without persistence, can
     * repeat a number). A resource that
     * remembers the highest token it has accepted can reject writes from a holder whose lease ran out while it was
     * paused. Nested acquisitions that share a hold share its token.
     *
     * @return the fencing token, at least 1
     */
    long fencingToken();

    /**
     * The random, unguessable token that identifies this hold in the store; only its owner can release or extend the
     * lock. Keep it out of logs.
     *
     * @return the owner token
     */
    String ownerToken();

    /**
     * The lease this acquisition asked for; a nested acquisition keeps its own, whatever the outer one's.
     *
     * @return the lease
     */
    Lease lease();

    /**
     * Asks the store whether this handle's hold still owns the lock.
     *
     * @return true if the store still has the key under this hold's owner token; false once released or lost
     * @throws LockBackendException if the store could not be asked
     */
    boolean isHeld();

    /**
     * Asks the store how much of the lease is left.
     *
     * @return the key's remaining time to live in the store, or {@link Duration#ZERO} if this hold no longer owns the
     *     lock
     * @throws LockBackendException if the store could not be asked
     */
    Duration remainingLease();

    /**
     * Sets the remaining lease to {@code lease} from now, in the store, if this hold still owns the lock. An
     * auto-renewed lease goes on being renewed afterwards; a fixed lease now ends {@code lease} from now.
     *
     * @param lease the new remaining lease, from 1 ms to {@link Lease#MAX_FIXED}
     * @throws IllegalArgumentException if {@code lease} is out of range
     * @throws IllegalStateException if this handle was already released
     * @throws LockLostException if the lock was lost; the key is not touched
     * @throws LockBackendException if the store could not be asked; the lease may or may not have been extended
     */
    void extend(Duration lease);

    /**
     * Tells, without asking the store, whether this hold is known to have lost its lock: a fixed lease ran out by the
     * local monotonic clock, a renewal found another owner or no key, or renewals failed until the lease must have run
     * out. Counting starts before the acquire command was sent, so this errs on the side of "lost".
     *
     * @return true once the lock is known to be lost
     */
    boolean isLost();

    /**
     * Registers a callback that runs once when this hold is found to have lost its lock, on an internal thread; it
     * must return quickly. It runs at once if the lock is already known to be lost, and never after a normal release.
     *
     * @param callback receives the exception describing the loss
     */
    void onLost(Consumer<LockLostException> callback);

    /**
     * Releases this acquisition. The lock is deleted in the store, and waiters are woken, when the last handle of a
     * hold is released; a nested handle only lowers the hold count.
     *
     * @throws IllegalStateException if this handle was already released
     * @throws LockLostException if the lock was lost before release; nothing of another owner's is touched
     * @throws LockBackendException if the store could not be asked; the lock then expires with its lease
     */
    void release();

    /**
     * Releases this acquisition like {@link #release()}, except that the key stays held in the store until {@code
     * minimum} has passed since it was acquired: a job that ends at once still keeps every other instance from running
     * it again within {@code minimum}. This is ShedLock's {@code lockAtLeastFor}.
     *
     * <p>The rest of the minimum is set as the key's remaining lease in the store and counted there, on the store's
     * clock: it is {@code minimum} less the time since this handle received the grant, measured on the local
     * monotonic clock, so the key is held at least {@code minimum} after the store granted it, and a little longer,
     * never less. No wall clock is compared. Until then nobody can release the key, not this owner either; it runs out
     * with that lease, and waiters of this instance then take it. Waiters of other instances that already wait notice
     * the key free when they next look, at the latest when the lease they last saw would have ended, or their wait
     * ends.
     *
     * <p>When {@code minimum} has already passed, this is {@link #release()}. A nested handle whose hold has other
     * open handles only lowers the hold count, as {@link #release()} does: the minimum counts when the last handle of
     * the hold ends this way. The rest may exceed a fixed lease's own end; keep {@code minimum} within the lease if it
     * must not.
     *
     * @param minimum how long after the acquisition the key stays held at least, from 1 ms to {@link
     *     Lease#MAX_FIXED}
     * @throws IllegalArgumentException if {@code minimum} is null or out of range
     * @throws IllegalStateException if this handle was already released
     * @throws LockLostException if the lock was lost before; nothing of another owner's is touched
     * @throws LockBackendException if the store could not be asked; the key then runs out with the lease it had, which
     *     may be shorter or longer than the rest of {@code minimum}
     */
    void releaseHoldingAtLeast(Duration minimum);

    /**
     * Releases this acquisition like {@link #release()}, without blocking the calling thread: for asynchronous and
     * reactive code, which must not wait for the store on an event loop. The stage completes once the release (or the
     * handover to a waiter of this instance) is confirmed; it fails with {@link IllegalStateException} if this handle
     * was already released, with {@link LockLostException} if the lock was lost before release, and with {@link
     * LockBackendException} if the store could not be asked, in which case the lock expires with its lease. The handle
     * counts as released from the call on, whatever the outcome.
     *
     * <p>This default releases on the calling thread and returns a completed stage; the handles of {@code RedisLock}
     * and its kinds release without blocking.
     *
     * @return a stage that completes when the release is done
     */
    default CompletionStage<Void> releaseAsync() {
        try {
            release();
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Releases this acquisition like {@link #release()}, unless it was already released, in which case it does
     * nothing.
     *
     * @throws LockLostException if the lock was lost before release
     * @throws LockBackendException if the store could not be asked
     */
    @Override
    void close();
}
