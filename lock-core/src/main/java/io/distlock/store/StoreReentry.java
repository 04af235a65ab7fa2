package io.distlock.store;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.internal.engine.HoldHandle;
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
 * <p>The two sides of a read-write lock look at each other: a read inside a scope that holds the key for writing
 * joins the write hold (a downgrade, exclusive until its last handle is released), and a write inside a scope that
 * holds it for reading fails at once, since an upgrade could wait for itself.
 *
 * <p>The store is asked on a worker thread, one call at a time with the hold's renewals and extensions, and the caller
 * waits for the answer as for any other store call ({@link CallBound}); an answer that comes after the caller gave up
 * still reports a lost hold. The hold counts the new handle only after the store's confirmation, so a re-entry that
 * fails leaves the hold's handles as they were.
 */
final class StoreReentry {

    private final LeaseStore store;
    private final StoreSide side;
    private final @Nullable StoreSide writer;
    private final @Nullable StoreSide readers;
    private final CallsUnderWay calls;

    /**
     * @param side the lock's own holds
     * @param writer for a read side, the write side whose holds a read re-enters; else null
     * @param readers for a write side, the read side whose holds refuse a write; else null
     */
    StoreReentry(
            LeaseStore store,
            StoreSide side,
            @Nullable StoreSide writer,
            @Nullable StoreSide readers,
            CallsUnderWay calls) {
        this.calls = calls;
        this.store = store;
        this.side = side;
        this.writer = writer;
        this.readers = readers;
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
     * @throws IllegalStateException for a write while a scope of this thread holds the key for reading
     */
    @Nullable
    LockHandle joinWithoutWait(String key, Lease lease) {
        Held held = heldInScope(key);
        if (held == null) {
            return null;
        }
        CallBound bound = CallBound.of(store, 0, true);
        CompletableFuture<Optional<Reason>> asked = ask(held);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return joined(held, lease, answer(asked, key, bound));
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
     * @throws IllegalStateException for a write while a scope of this thread holds the key for reading
     */
    @Nullable
    LockHandle join(String key, Lease lease, long deadlineNanos, boolean unbounded) throws InterruptedException {
        Held held = heldInScope(key);
        if (held == null) {
            return null;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before re-entering lock '" + PrintableText.of(key) + "'");
        }
        CallBound bound = CallBound.of(store, deadlineNanos, unbounded);
        return joined(held, lease, answer(ask(held), key, bound));
    }

    /**
     * The hold that a scope or view lock of this thread holds the key with, on this side or, for a read, on the write
     * side, if it is still held; throws if lost, or if this is a write and the key is held for reading.
     */
    @Nullable
    private Held heldInScope(String key) {
        StoreHold own = side.heldInScope(key);
        if (own != null) {
            return new Held(side, own);
        }
        StoreHold written = writer == null ? null : writer.heldInScope(key);
        if (written != null) {
            return new Held(writer, written);
        }
        if (readers != null && readers.heldInScope(key) != null) {
            throw new IllegalStateException("lock '" + PrintableText.of(key) + "' is held for reading in this scope and"
                    + " cannot be taken for writing (an upgrade could deadlock); release the read lock first, or take"
                    + " the write lock from the start");
        }
        return null;
    }

    private CompletableFuture<Optional<Reason>> ask(Held held) {
        return calls.start(held.hold().key(), store, () -> held.side().holds().checkOwned(held.hold()));
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
    private LockHandle joined(Held held, Lease lease, Optional<Reason> gone) {
        StoreHold hold = held.hold();
        if (gone.isPresent()) {
            if (hold.isLost()) {
                throw hold.lostException();
            }
            return null;
        }
        return hold.join() ? new HoldHandle<>(held.side().holds(), hold, lease) : null;
    }

    /** A hold found in a scope, with the side whose holds it belongs to. */
    private record Held(StoreSide side, StoreHold hold) {}
}
