package io.distlock.store;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.internal.engine.HoldHandle;
import io.distlock.internal.engine.ThreadOwnedHandles;
import io.distlock.internal.text.PrintableText;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Re-entry into the holds of one {@link StoreLock}: an acquisition of a key that a {@link io.distlock.LockContext}
 * scope or a JDK view lock of the calling thread holds through the lock joins that hold once the store has confirmed
 * that the key is still the hold's ({@link StoreLease#checkOwned()}), as {@link io.distlock.Lock} promises. A hold
 * that the store no longer grants is reported lost, as a failed renewal reports it.
 *
 * <p>The store is asked on a worker thread, one call at a time with the hold's renewals and extensions, and the caller
 * waits for the answer as for any other store call ({@link CallBound}); an answer that comes after the caller gave up
 * still reports a lost hold. The hold counts the new handle only after the store's confirmation, so a re-entry that
 * fails leaves the hold's handles as they were.
 */
final class StoreReentry {

    private final LeaseStore store;
    private final StoreHolds holds;
    private final ThreadOwnedHandles threadOwned;
    private final CallsUnderWay calls;

    StoreReentry(LeaseStore store, StoreHolds holds, ThreadOwnedHandles threadOwned, CallsUnderWay calls) {
        this.calls = calls;
        this.store = store;
        this.holds = holds;
        this.threadOwned = threadOwned;
    }

    /**
     * Re-enters for an acquisition without a wait, which waits for the store's answer up to the call timeout, as its
     * single attempt would. An interrupt does not end that wait, and is kept for the caller.
     *
     * @return the nested handle, or null if no scope or view lock of this thread holds the key through this lock (or
     *     its hold has just ended), and the acquisition is a new owner's
     * @throws LockLostException if that hold was lost, or the store says now that the key is no longer the hold's; the
     *     hold is then reported lost
     * @throws LockBackendException if the store failed, or did not answer within the call timeout; nothing is joined
     */
    @Nullable
    LockHandle joinWithoutWait(String key, Lease lease) {
        StoreHold hold = heldInScope(key);
        if (hold == null) {
            return null;
        }
        CallBound bound = CallBound.of(store, 0, true);
        CompletableFuture<Optional<Reason>> asked = ask(hold);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return joined(hold, lease, answer(asked, key, bound));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Re-enters for a waiting acquisition, which waits for the store's answer within its wait plus a short grace, and
     * at most the call timeout.
     *
     * @param deadlineNanos when the caller's wait ends, by {@link System#nanoTime()}; ignored when unbounded
     * @param unbounded true for {@code acquire}, which waits for the answer up to the call timeout
     * @return the nested handle, or null if no scope or view lock of this thread holds the key through this lock (or
     *     its hold has just ended), and the acquisition is a new owner's
     * @throws InterruptedException if the thread was interrupted before or while the store was asked; nothing is
     *     joined, and an answer that comes later still reports a lost hold
     * @throws LockLostException if that hold was lost, or the store says now that the key is no longer the hold's; the
     *     hold is then reported lost
     * @throws LockBackendException if the store failed, or did not answer in time; nothing is joined
     */
    @Nullable
    LockHandle join(String key, Lease lease, long deadlineNanos, boolean unbounded) throws InterruptedException {
        StoreHold hold = heldInScope(key);
        if (hold == null) {
            return null;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before re-entering lock '" + PrintableText.of(key) + "'");
        }
        CallBound bound = CallBound.of(store, deadlineNanos, unbounded);
        return joined(hold, lease, answer(ask(hold), key, bound));
    }

    /** The hold that a scope or view lock of this thread holds the key with, if it is still held; throws if lost. */
    @Nullable
    private StoreHold heldInScope(String key) {
        StoreHold hold = threadOwned.heldByCurrentThread(key, holds, any -> true);
        if (hold == null) {
            return null;
        }
        if (holds.isLost(hold)) {
            throw hold.lostException();
        }
        return hold.isActive() ? hold : null;
    }

    private CompletableFuture<Optional<Reason>> ask(StoreHold hold) {
        return calls.start(hold.key(), store, () -> holds.checkOwned(hold));
    }

    private Optional<Reason> answer(CompletableFuture<Optional<Reason>> asked, String key, CallBound bound)
            throws InterruptedException {
        try {
            return asked.get(bound.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw BoundedAcquisition.failure(e.getCause());
        } catch (TimeoutException e) {
            throw new LockBackendException(
                    key,
                    store.describe() + " did not answer whether '" + PrintableText.of(key)
                            + "' is still held, for a nested acquisition, "
                            + bound.describe(),
                    null);
        }
    }

    /**
     * The nested handle once the store answered. A hold the store no longer grants was reported lost by the check,
     * unless its last release ended it meanwhile: then, as for a hold that ended before, the caller acquires anew.
     */
    @Nullable
    private LockHandle joined(StoreHold hold, Lease lease, Optional<Reason> gone) {
        if (gone.isPresent()) {
            if (hold.isLost()) {
                throw hold.lostException();
            }
            return null;
        }
        return hold.join() ? new HoldHandle<>(holds, hold, lease) : null;
    }
}
