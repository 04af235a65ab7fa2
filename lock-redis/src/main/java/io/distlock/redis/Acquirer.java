package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.redis.LockCommands.Attempted;
import io.distlock.redis.LockCommands.Busy;
import io.distlock.redis.LockCommands.Granted;
import io.distlock.spi.ThreadOwnedHandles;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Takes locks for {@link RedisLock}: re-entry inside a scope that holds the key, a single attempt, and a wait in this
 * instance's {@link WaitingRoom} that ends at the caller's deadline, whatever Redis does. An attempt whose answer the
 * caller will not use is {@linkplain LockCommands.Attempt#abandon abandoned}, so a late grant is freed again.
 */
final class Acquirer {

    private final RedisLock owner;
    private final LockCommands commands;
    private final WaitingRoom waitingRoom;
    private final Releaser releaser;
    private final ThreadOwnedHandles threadOwned;
    private final Runnable checkEviction;
    private final Runnable subscribe;

    /**
     * @param checkEviction starts the eviction policy check in the background, once
     * @param subscribe makes sure, in the background, that releases of other instances reach the waiting room
     */
    Acquirer(
            RedisLock owner,
            LockCommands commands,
            WaitingRoom waitingRoom,
            Releaser releaser,
            ThreadOwnedHandles threadOwned,
            Runnable checkEviction,
            Runnable subscribe) {
        this.owner = owner;
        this.commands = commands;
        this.waitingRoom = waitingRoom;
        this.releaser = releaser;
        this.threadOwned = threadOwned;
        this.checkEviction = checkEviction;
        this.subscribe = subscribe;
    }

    /** One attempt, waiting for Redis's answer no longer than the client would. */
    Optional<LockHandle> tryOnce(String key, String lockKey, Lease lease) {
        LockHandle nested = reenter(key, lease, WaitingRoom.FOREVER);
        if (nested != null) {
            return Optional.of(nested);
        }
        LockCommands.Attempt attempt = commands.acquire(
                key, lockKey, OwnerTokens.newToken(), owner.holds().leaseMillis(lease), false);
        Attempted answer =
                Waits.answerOnce(attempt.call(), commands.answerTimeoutNanos(), () -> abandon(attempt, lockKey));
        checkEviction.run();
        return answer instanceof Granted granted
                ? Optional.of(owner.holds()
                        .held(
                                key,
                                lockKey,
                                attempt.token(),
                                granted.fencingToken(),
                                lease,
                                attempt.call().sentNanos()))
                : Optional.empty();
    }

    /**
     * Waits until {@code waitNanos} have passed ({@link WaitingRoom#FOREVER}: no limit).
     *
     * @return the handle, or null if the lock stayed taken
     */
    @Nullable
    LockHandle acquire(String key, String lockKey, Lease lease, long waitNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + key + "'");
        }
        long deadline = Waits.deadline(waitNanos);
        LockHandle nested = reenter(key, lease, deadline);
        if (nested != null) {
            return nested;
        }
        if (commands.isConnected()) {
            startBackgroundWork();
        }
        KeyQueue.Waiter waiter =
                waitingRoom.enter(lockKey, OwnerTokens.newToken(), owner.holds().leaseMillis(lease));
        boolean handoverTaken = false;
        try {
            boolean attempt = waiter.tryFirst();
            boolean redisAnswered = false;
            while (true) {
                if (attempt) {
                    LockCommands.Attempt sent =
                            commands.acquire(key, lockKey, waiter.token(), waiter.leaseMillis(), true);
                    Attempted answer = awaitAttempt(sent, lockKey, deadline, redisAnswered);
                    if (answer == null) {
                        return null;
                    }
                    redisAnswered = true;
                    startBackgroundWork();
                    if (answer instanceof Granted granted) {
                        return owner.holds()
                                .held(
                                        key,
                                        lockKey,
                                        sent.token(),
                                        granted.fencingToken(),
                                        lease,
                                        sent.call().sentNanos());
                    }
                    waiter.holderBusy(((Busy) answer).holderTtlMillis());
                }
                if (Waits.isOver(deadline)) {
                    return null;
                }
                WaitingRoom.Turn turn = waiter.await(deadline);
                if (turn == WaitingRoom.Turn.HANDED_OVER) {
                    handoverTaken = true;
                    return owner.holds()
                            .held(key, lockKey, waiter.token(), waiter.fencingToken(), lease, waiter.handedOverNanos());
                }
                if (turn == WaitingRoom.Turn.TIMED_OUT) {
                    return null;
                }
                if (turn == WaitingRoom.Turn.CLOSED) {
                    throw owner.closed(key);
                }
                attempt = true;
            }
        } finally {
            if (waiter.leave() && !handoverTaken) {
                // Handed over just as this wait ended or was interrupted: give it back.
                releaser.releaseInBackground(key, lockKey, waiter.token());
            }
        }
    }

    /**
     * Waits for an acquisition attempt within the caller's wait ({@link Waits#answer}); an attempt given up for any
     * reason is abandoned.
     */
    private @Nullable Attempted awaitAttempt(
            LockCommands.Attempt attempt, String lockKey, long deadline, boolean redisAnsweredBefore)
            throws InterruptedException {
        return Waits.answer(
                attempt.call(),
                commands.answerTimeoutNanos(),
                deadline,
                redisAnsweredBefore,
                true,
                () -> abandon(attempt, lockKey));
    }

    /**
     * Subscribes to release announcements and checks the eviction policy. Only once Redis has answered this lock, so
     * that their connections are never made while the first one is still being made.
     */
    void startBackgroundWork() {
        subscribe.run();
        checkEviction.run();
    }

    private void abandon(LockCommands.Attempt attempt, String lockKey) {
        attempt.abandon(() -> waitingRoom.released(lockKey));
    }

    /**
     * A nested acquisition inside a scope of this thread that holds the key (a {@link LockContext} scope, or a {@link
     * io.distlock.spi.JavaLockView} lock), confirmed in Redis and sharing that hold. Anywhere else, even on a thread
     * that acquired the key before, an acquisition is a new owner's: the earlier handle may have been handed to other
     * code.
     *
     * <p>A scope that holds the key for reading cannot take it for writing: the two readers that tried would each wait
     * for the other forever, so that fails at once.
     *
     * @param deadline when the caller's wait ends, or {@link WaitingRoom#FOREVER} for the command timeout
     * @return the nested handle, or null if no scope of this thread holds the key
     * @throws IllegalStateException if the scope holds the key for reading
     */
    @Nullable
    LockHandle reenter(String key, Lease lease, long deadline) {
        Hold outer = heldByThisThread(key);
        if (outer == null) {
            return null;
        }
        if (outer.isRead()) {
            throw new IllegalStateException("lock '" + key + "' is held for reading in this scope and cannot be taken"
                    + " for writing (an upgrade could deadlock); release the read lock first, or take the write lock"
                    + " from the start");
        }
        return owner.holds().join(outer, lease, deadline);
    }

    /** The hold of the innermost scope of this thread that holds the key through this lock, if any. */
    @Nullable
    Hold heldByThisThread(String key) {
        return heldByThisThread(key, owner.holds(), hold -> true);
    }

    /** The hold of the innermost scope of this thread that holds the key, among the holds {@code which} accepts. */
    @Nullable
    Hold heldByThisThread(String key, Holds holds, Predicate<Hold> which) {
        return threadOwned.heldByCurrentThread(key, holds, which);
    }
}
