package io.distlock.redis.internal.engine;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.redis.internal.engine.LockCommands.Attempted;
import io.distlock.redis.internal.engine.LockCommands.Busy;
import io.distlock.redis.internal.engine.LockCommands.Granted;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.waiting.Turn;
import io.distlock.redis.internal.waiting.Waiter;
import io.distlock.redis.internal.waiting.WaitingRoom;
import io.distlock.redis.internal.waiting.Waits;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link io.distlock.redis.RedisLock#tryAcquireAsync} that no thread waits for: {@link Acquirer#acquire}'s steps in
 * the same {@link WaitingRoom} queue, under the same first-come-first-served and handover rules, driven by Redis's
 * answers, the queue's wake-ups and timers instead of a parked thread.
 *
 * <p>Every step runs under this object's monitor, taken before the queue's lock, and never runs the caller's code:
 * the result is completed after the monitor is left, on a thread of {@link AsyncThreads}. A result completed by
 * anyone else first (a cancel) ends the wait, abandons an attempt on its way, and gives back a grant or handover that
 * arrives later, exactly as the blocking wait does when it ends.
 */
public final class AsyncAcquisition {

    private static final Logger log = LoggerFactory.getLogger(AsyncAcquisition.class);

    private final AsyncParts parts;
    private final String key;
    private final String lockKey;
    private final LeaseAsked lease;
    private final long deadline;
    private final boolean willWait;
    private final CompletableFuture<Optional<LockHandle>> result = new CompletableFuture<>();
    private final LockObserver.Acquisition observed;

    private @Nullable Waiter waiter;
    private LockCommands.@Nullable Attempt inFlight;
    /** The lease the attempt in flight asked Redis for. */
    private long inFlightMillis;
    /** Whether the acquisition waited behind others of this instance, so that its grant may start a run. */
    private boolean waited;

    private @Nullable Future<?> timer;
    private final Waits.Answers answers = new Waits.Answers();
    private volatile boolean over;
    private @Nullable Runnable settle;

    AsyncAcquisition(AsyncParts parts, String key, String lockKey, LeaseAsked lease, long waitNanos) {
        this.parts = parts;
        this.key = key;
        this.lockKey = lockKey;
        this.lease = lease;
        this.deadline = Waits.deadline(waitNanos);
        this.willWait = waitNanos > 0;
        this.observed = parts.observer().asyncStarted(key, LockKind.EXCLUSIVE);
    }

    /** Joins the key's queue and tries or waits; the result completes later, or at once if the lock is closed. */
    CompletableFuture<Optional<LockHandle>> start() {
        result.whenComplete((handle, failure) -> {
            if (!over) {
                step(this::endedElsewhere);
            }
        });
        step(() -> {
            waiter = parts.waitingRoom()
                    .enter(lockKey, OwnerTokens.newToken(), parts.holds().redisMillis(lease));
            if (waiter.tryFirst() || !willWait) {
                attempt();
            } else {
                awaitTurn();
            }
        });
        return result;
    }

    /** Runs one step under the monitor, then completes the result outside it if the step decided the outcome. */
    private void step(Runnable body) {
        Runnable decided;
        synchronized (this) {
            if (over) {
                return;
            }
            try {
                body.run();
            } catch (RuntimeException e) {
                fail(e);
            }
            decided = settle;
            settle = null;
        }
        if (decided != null) {
            decided.run();
        }
    }

    private void attempt() {
        Waiter queued = queued();
        long redisMillis = waited ? queued.leaseMillis() : lease.storeMillis();
        LockCommands.Attempt sent = parts.commands().acquire(key, lockKey, queued.token(), redisMillis, willWait);
        inFlight = sent;
        inFlightMillis = redisMillis;
        // A single attempt gives Redis as long as the blocking tryAcquire does; a wait gives it no longer than itself.
        long answerWait = willWait
                ? Waits.answerWait(parts.commands().answerTimeoutNanos(), deadline)
                : parts.commands().answerTimeoutNanos();
        sent.call()
                .answer()
                .copy()
                .orTimeout(answerWait, TimeUnit.NANOSECONDS)
                .whenCompleteAsync(
                        (answer, failure) -> step(() -> answered(sent, answer, failure, answerWait)), parts.threads());
    }

    private void answered(
            LockCommands.Attempt sent, @Nullable Attempted answer, @Nullable Throwable failure, long answerWait) {
        if (inFlight != sent) {
            return;
        }
        inFlight = null;
        if (failure != null || answer == null) {
            abandon(sent);
            Throwable cause = failure == null
                    ? new IllegalStateException("no answer to an attempt on '" + PrintableText.of(key) + "'")
                    : ScriptCall.unwrap(failure);
            unanswered(
                    cause instanceof TimeoutException
                            ? sent.call().timedOut(answerWait)
                            : ScriptCall.failure(key, "acquire", cause));
            return;
        }
        answers.answered();
        parts.startBackgroundWork();
        if (answer instanceof Granted granted) {
            succeed(
                    parts.holds()
                            .granted(
                                    key,
                                    lockKey,
                                    sent.token(),
                                    granted.fencingToken(),
                                    lease,
                                    sent.call().sentNanos(),
                                    inFlightMillis),
                    false);
            return;
        }
        queued().holderBusy(((Busy) answer).holderTtlMillis());
        parts.waitsFor(lockKey);
        if (Waits.isOver(deadline)) {
            succeed(null, false);
        } else {
            awaitTurn();
        }
    }

    /**
     * An attempt failed or went unanswered, and was abandoned. A single attempt fails; a wait goes on, as the blocking
     * one does ({@link Waits.Answers}): with time left, it tries again after a pause, under a new token, since the
     * abandoned attempt's releases may reach Redis after the next attempt.
     */
    private void unanswered(LockBackendException failure) {
        if (!willWait) {
            fail(failure);
            return;
        }
        try {
            answers.unanswered(failure, deadline);
        } catch (LockBackendException ends) {
            fail(ends);
            return;
        }
        if (!answers.tryAgain()) {
            succeed(null, false);
            return;
        }
        Waiter queued = queued();
        queued.newToken(OwnerTokens.newToken());
        queued.lookAgainAfter(answers.pauseNanos(deadline));
        awaitTurn();
    }

    /**
     * The wait ended without the lock: not acquired, or the failure if Redis never answered ({@link Waits.Answers}).
     */
    private void timedOut() {
        try {
            answers.over();
        } catch (LockBackendException neverAnswered) {
            fail(neverAnswered);
            return;
        }
        succeed(null, false);
    }

    private void awaitTurn() {
        Waiter queued = queued();
        Turn turn = queued.turnOrWakeUp(deadline, this::wakeUp);
        if (turn == null) {
            long sleep = queued.sleepNanos();
            if (sleep != Long.MAX_VALUE) {
                timer = parts.threads().schedule(this::wakeUp, sleep);
            }
            return;
        }
        switch (turn) {
            case TRY -> {
                waited = true;
                attempt();
            }
            case HANDED_OVER ->
                succeed(
                        parts.holds()
                                .held(
                                        key,
                                        lockKey,
                                        queued.token(),
                                        queued.fencingToken(),
                                        lease,
                                        queued.handedOverNanos()),
                        true);
            case TIMED_OUT -> timedOut();
            case CLOSED -> fail(parts.closed(key));
        }
    }

    /** A release, a handover, a turn or a timer may have brought this waiter's turn: look, on a thread of ours. */
    private void wakeUp() {
        parts.threads()
                .execute(() -> step(() -> {
                    if (inFlight == null) {
                        cancelTimer();
                        awaitTurn();
                    }
                }));
    }

    /**
     * The result was completed, by this acquisition or by anyone else: when by anyone else, stop as a blocking wait
     * stops when it ends early.
     */
    private void endedElsewhere() {
        parts.observer()
                .asyncEnded(observed, key, LockKind.EXCLUSIVE, null, new CancellationException("ended by the caller"));
        LockCommands.Attempt sent = inFlight;
        inFlight = null;
        if (sent != null) {
            abandon(sent);
        }
        end(false);
    }

    /**
     * @param handle the lock, or null if the wait ended without it
     * @param handoverTaken whether the handle is a lock handed over to this waiter
     */
    private void succeed(@Nullable LockHandle handle, boolean handoverTaken) {
        end(handoverTaken);
        settle = () -> {
            parts.observer().asyncEnded(observed, key, LockKind.EXCLUSIVE, handle, null);
            if (!result.complete(Optional.ofNullable(handle)) && handle != null) {
                giveBack(handle);
            }
        };
    }

    private void fail(Throwable failure) {
        LockCommands.Attempt sent = inFlight;
        inFlight = null;
        if (sent != null) {
            abandon(sent);
        }
        end(false);
        settle = () -> {
            parts.observer().asyncEnded(observed, key, LockKind.EXCLUSIVE, null, failure);
            result.completeExceptionally(failure);
        };
    }

    /**
     * Leaves the queue. A lock handed over just as the wait ended, and not taken by this acquisition, is given back,
     * as {@link Acquirer#acquire} does.
     */
    private void end(boolean handoverTaken) {
        over = true;
        cancelTimer();
        Waiter queued = waiter;
        if (queued != null && queued.leave() && !handoverTaken) {
            parts.releaser().releaseInBackground(key, lockKey, queued.token());
        }
    }

    private void abandon(LockCommands.Attempt sent) {
        sent.abandon(() -> parts.waitingRoom().released(lockKey));
    }

    private void cancelTimer() {
        Future<?> scheduled = timer;
        timer = null;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
    }

    private Waiter queued() {
        Waiter queued = waiter;
        if (queued == null) {
            throw new IllegalStateException("acquisition of '" + PrintableText.of(key) + "' has not joined its queue");
        }
        return queued;
    }

    private static void giveBack(LockHandle handle) {
        handle.releaseAsync().whenComplete((released, failure) -> {
            if (failure != null) {
                log.warn(
                        "Lock '{}' was acquired after its asynchronous acquisition was cancelled and could not be "
                                + "given back; it expires with its lease: {}",
                        handle.key(),
                        ScriptCall.unwrap(failure).getMessage());
            }
        });
    }
}
