package io.distlock.redis.internal.engine;

import io.distlock.LockHandle;
import io.distlock.internal.text.PrintableText;
import io.distlock.redis.internal.engine.LockCommands.Attempted;
import io.distlock.redis.internal.engine.LockCommands.Busy;
import io.distlock.redis.internal.engine.LockCommands.Granted;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.waiting.Turn;
import io.distlock.redis.internal.waiting.Waiter;
import io.distlock.redis.internal.waiting.WaitingRoom;
import io.distlock.redis.internal.waiting.Waits;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Takes locks for {@link io.distlock.redis.RedisLock}: re-entry inside a scope that holds the key, a single attempt,
 * and a wait in this instance's {@link WaitingRoom} that ends at the caller's deadline, whatever Redis does. An attempt
 * whose answer the caller will not use is {@linkplain LockCommands.Attempt#abandon abandoned}, so a late grant is freed
 * again.
 */
public final class Acquirer {

    private final LockKit kit;
    private final LockCommands commands;
    private final WaitingRoom waitingRoom;
    private final Releaser releaser;

    public Acquirer(LockKit kit, LockCommands commands, WaitingRoom waitingRoom, Releaser releaser) {
        this.kit = kit;
        this.commands = commands;
        this.waitingRoom = waitingRoom;
        this.releaser = releaser;
    }

    /** One attempt, waiting for Redis's answer no longer than the client would. */
    public Optional<LockHandle> tryOnce(String key, String lockKey, LeaseAsked lease) {
        LockHandle nested = kit.reenter(key, lease, Waits.FOREVER);
        if (nested != null) {
            return Optional.of(nested);
        }
        LockCommands.Attempt attempt =
                commands.acquire(key, lockKey, OwnerTokens.newToken(), lease.storeMillis(), false);
        Attempted answer =
                Waits.answerOnce(attempt.call(), commands.answerTimeoutNanos(), () -> abandon(attempt, lockKey));
        kit.checkEviction();
        return answer instanceof Granted granted
                ? Optional.of(kit.holds()
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
     * Waits until {@code waitNanos} have passed ({@link Waits#FOREVER}: no limit). An attempt that Redis does not
     * answer, or fails for a reason that passes, is tried again until then ({@link Waits.Answers}), so a bounded wait
     * rides out a failover that ends before it does.
     *
     * @return the handle, or null if the lock stayed taken
     */
    @Nullable
    public LockHandle acquire(String key, String lockKey, LeaseAsked lease, long waitNanos)
            throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + PrintableText.of(key) + "'");
        }
        long deadline = Waits.deadline(waitNanos);
        LockHandle nested = kit.reenter(key, lease, deadline);
        if (nested != null) {
            return nested;
        }
        if (commands.isConnected()) {
            kit.startBackgroundWork();
        }
        Waiter waiter =
                waitingRoom.enter(lockKey, OwnerTokens.newToken(), kit.holds().redisMillis(lease));
        boolean handoverTaken = false;
        try {
            boolean attempt = waiter.tryFirst();
            boolean waited = false;
            Waits.Answers answers = new Waits.Answers();
            while (true) {
                if (attempt) {
                    long redisMillis = waited ? waiter.leaseMillis() : lease.storeMillis();
                    LockCommands.Attempt sent = commands.acquire(key, lockKey, waiter.token(), redisMillis, true);
                    Attempted answer = awaitAttempt(sent, lockKey, deadline, answers);
                    if (answer == null && !answers.tryAgain()) {
                        return null;
                    }
                    if (answer == null) {
                        // Not answered yet (a failover, say): the abandoned attempt's releases may still reach Redis
                        // after the next attempt, so that one goes under a new token; and not before a pause.
                        waiter.newToken(OwnerTokens.newToken());
                        waiter.lookAgainAfter(answers.pauseNanos(deadline));
                    } else {
                        kit.startBackgroundWork();
                        if (answer instanceof Granted granted) {
                            return kit.holds()
                                    .granted(
                                            key,
                                            lockKey,
                                            sent.token(),
                                            granted.fencingToken(),
                                            lease,
                                            sent.call().sentNanos(),
                                            redisMillis);
                        }
                        waiter.holderBusy(((Busy) answer).holderTtlMillis());
                        kit.waitsFor(lockKey, false);
                    }
                }
                if (Waits.isOver(deadline)) {
                    return answers.over();
                }
                Turn turn = waiter.await(deadline);
                if (turn == Turn.HANDED_OVER) {
                    handoverTaken = true;
                    return kit.holds()
                            .held(key, lockKey, waiter.token(), waiter.fencingToken(), lease, waiter.handedOverNanos());
                }
                if (turn == Turn.TIMED_OUT) {
                    return answers.over();
                }
                if (turn == Turn.CLOSED) {
                    throw kit.closed(key);
                }
                attempt = true;
                waited = true;
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
            LockCommands.Attempt attempt, String lockKey, long deadline, Waits.Answers answers)
            throws InterruptedException {
        return Waits.answer(
                attempt.call(),
                commands.answerTimeoutNanos(),
                deadline,
                answers,
                true,
                () -> abandon(attempt, lockKey));
    }

    private void abandon(LockCommands.Attempt attempt, String lockKey) {
        attempt.abandon(() -> waitingRoom.released(lockKey));
    }
}
