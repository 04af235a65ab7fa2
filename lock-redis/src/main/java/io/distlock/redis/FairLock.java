package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.internal.engine.JavaLockView;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.LeaseAsked;
import io.distlock.redis.internal.engine.LockKit;
import io.distlock.redis.internal.fair.FairCommands;
import io.distlock.redis.internal.fair.FairHandovers;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.waiting.ReleaseSignals;
import io.distlock.redis.internal.waiting.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Lock} whose waiters, in every process, are served first come first served: each waiting caller takes a
 * ticket in a queue in Redis, and a release hands the key straight to the first ticket's owner, in whatever process,
 * and announces it; nobody retries or races. Get it from {@link RedisLock#fair()}; it shares that lock's keys, leases,
 * renewals, fencing tokens and re-entry, so a fair and a plain acquisition of one key exclude each other (a plain one
 * does not queue, though, so use one kind per key to keep the order).
 *
 * <p>A waiter keeps its place by calling Redis again every {@value #HEARTBEAT_MILLIS} ms. One that dies or is paused
 * for {@value #HEARTBEAT_TIMEOUT_MILLIS} ms loses its place and is skipped when its turn comes; one that stops waiting
 * withdraws at once. If the lock is handed to a waiter of another instance that died just before its turn, the
 * handover's lease is no longer than what was left of its timeout, so a dead waiter holds up the line for at most
 * {@value #HEARTBEAT_TIMEOUT_MILLIS} ms. A live waiter extends the handed-over lease to its own as soon as it hears of
 * the handover, and counts its lease from Redis's time of the handover, mapped onto its own monotonic clock through
 * Redis's time in its latest call. A waiter of the releasing instance gets its full lease at once, and hears of the
 * handover from the release's answer, without a round trip through the subscription.
 *
 * <p>Waiting forms end when their wait ends, when interrupted (with {@link InterruptedException}; the ticket is
 * withdrawn, and a lock handed over meanwhile is passed on), or with {@link LockBackendException} when Redis does not
 * answer. Held locks behave as {@link RedisLock}'s: renewals, {@link LockHandle#isLost()}, {@link
 * LockHandle#onLost} and {@link io.distlock.LockLostException} on release. Not available on a {@link Redlock}.
 */
public final class FairLock implements Lock {

    private static final Logger log = LoggerFactory.getLogger(FairLock.class);

    /** How long a waiter keeps its place in the queue without calling Redis again. */
    static final long HEARTBEAT_TIMEOUT_MILLIS = 2000;

    /** How often a waiter calls Redis again: well within the timeout, so a slow call does not cost its place. */
    static final long HEARTBEAT_MILLIS = HEARTBEAT_TIMEOUT_MILLIS / 4;

    /** Redis's clock and this process's may run at slightly different rates: this much of an interval, plus 2 ms. */
    private static final double CLOCK_RATE_ALLOWANCE = 0.001;

    private final LockKit kit;
    private final FairCommands commands;
    private final FairHandovers handovers;
    private final ReleaseSignals releases;

    /**
     * @param releases signals every release of a key that hands it to nobody (the last reader leaving, a plain
     *     holder), so that a queued waiter looks at once instead of at its next heartbeat
     */
    FairLock(LockKit kit, FairCommands commands, FairHandovers handovers, ReleaseSignals releases) {
        this.kit = kit;
        this.commands = commands;
        this.handovers = handovers;
        this.releases = releases;
    }

    /** Takes the lock if it is free and nobody waits for it; returns at once. */
    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        LeaseAsked asked = kit.validate(key, lease);
        return Optional.ofNullable(kit.observer().acquisition(key, LockKind.FAIR, () -> tryOnce(key, asked)));
    }

    private @Nullable LockHandle tryOnce(String key, LeaseAsked lease) {
        LockHandle nested = kit.reenter(key, lease, Waits.FOREVER);
        if (nested != null) {
            return nested;
        }
        String lockKey = kit.lockKey(key);
        String ticket = commands.newTicket();
        String token = OwnerTokens.newToken();
        ScriptCall<FairCommands.Answer> call =
                commands.acquire(key, lockKey, ticket, token, lease.storeMillis(), HEARTBEAT_TIMEOUT_MILLIS, false);
        FairCommands.Answer answer = Waits.answerOnce(
                call, commands.answerTimeoutNanos(), () -> leave(key, lockKey, ticket, token, List.of(call)));
        kit.startBackgroundWork();
        return answer.granted()
                ? kit.holds()
                        .heldFair(key, lockKey, token, answer.fencingToken(), lease, call.sentNanos(), answer.millis())
                : null;
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
        LeaseAsked asked = kit.validate(key, lease);
        long waitNanos = Waits.nanos(wait);
        if (waitNanos == 0) {
            return Optional.ofNullable(kit.observer().acquisition(key, LockKind.FAIR, () -> tryOnce(key, asked)));
        }
        return Optional.ofNullable(kit.observer().acquisition(key, LockKind.FAIR, () -> queue(key, asked, waitNanos)));
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        LeaseAsked asked = kit.validate(key, lease);
        LockHandle handle = kit.observer().acquisition(key, LockKind.FAIR, () -> queue(key, asked, Waits.FOREVER));
        if (handle == null) {
            throw new IllegalStateException(
                    "an unbounded wait for lock '" + PrintableText.of(key) + "' ended without the lock");
        }
        return handle;
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        kit.validate(key, lease);
        return new JavaLockView(this, key, lease, kit.threadOwned());
    }

    /**
     * Waits in the queue until the lock is handed over or taken, or {@code waitNanos} have passed ({@link
     * Waits#FOREVER}: no limit).
     *
     * @return the handle, or null if the wait ended first
     */
    private @Nullable LockHandle queue(String key, LeaseAsked lease, long waitNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + PrintableText.of(key) + "'");
        }
        long deadline = Waits.deadline(waitNanos);
        LockHandle nested = kit.reenter(key, lease, deadline);
        if (nested != null) {
            return nested;
        }
        String lockKey = kit.lockKey(key);
        String ticket = commands.newTicket();
        String token = OwnerTokens.newToken();
        long leaseMillis = lease.storeMillis();
        CompletableFuture<FairHandovers.Notice> notice = handovers.expect(ticket);
        List<ScriptCall<FairCommands.Answer>> calls = new ArrayList<>();
        CompletableFuture<Void> released = null;
        boolean taken = false;
        try {
            Waits.Answers answers = new Waits.Answers();
            while (true) {
                if (kit.isClosed()) {
                    throw kit.closed(key);
                }
                released = releases.next(lockKey);
                // The same ticket and token every time: an unanswered call that Redis runs late only queues the same
                // ticket again, and leaving covers every call still on its way.
                ScriptCall<FairCommands.Answer> call =
                        commands.acquire(key, lockKey, ticket, token, leaseMillis, HEARTBEAT_TIMEOUT_MILLIS, true);
                calls.removeIf(earlier -> earlier.answer().isDone());
                calls.add(call);
                boolean firstAnswer = !answers.answeredBefore();
                FairCommands.Answer answer =
                        Waits.answer(call, commands.answerTimeoutNanos(), deadline, answers, true, () -> {});
                if (answer == null) {
                    if (!answers.tryAgain()) {
                        return null;
                    }
                    // Not answered yet (a failover, say): look again after a pause, or at a notice or a release.
                    FairHandovers.Notice heard = awaitNotice(
                            notice, released, deadline, TimeUnit.NANOSECONDS.toMillis(answers.pauseNanos(deadline)));
                    releases.forget(lockKey, released);
                    if (heard != null) {
                        // Handed over meanwhile, or a look is due: the next call tells, with the ticket's place.
                        notice = handovers.expect(ticket);
                    }
                    if (heard == null && Waits.isOver(deadline)) {
                        return answers.over();
                    }
                    continue;
                }
                if (firstAnswer) {
                    kit.startBackgroundWork();
                }
                if (answer.granted()) {
                    taken = true;
                    return kit.holds()
                            .heldFair(
                                    key,
                                    lockKey,
                                    token,
                                    answer.fencingToken(),
                                    lease,
                                    call.sentNanos(),
                                    answer.millis());
                }
                kit.waitsFor(lockKey, true);
                FairHandovers.Notice heard = awaitNotice(notice, released, deadline, answer.millis());
                releases.forget(lockKey, released);
                if (heard == FairHandovers.LOOK_AGAIN || heard != null && isStale(heard, answer)) {
                    notice = handovers.expect(ticket);
                } else if (heard != null) {
                    taken = true;
                    return kit.holds()
                            .heldFair(
                                    key,
                                    lockKey,
                                    token,
                                    heard.fencingToken(),
                                    lease,
                                    handoverNanos(call.sentNanos(), answer.serverMillis(), heard.serverMillis()),
                                    heard.provisionalMillis());
                } else if (Waits.isOver(deadline)) {
                    return answers.over();
                }
            }
        } finally {
            if (released != null) {
                releases.forget(lockKey, released);
            }
            handovers.forget(ticket);
            if (!taken) {
                leave(key, lockKey, ticket, token, calls);
            }
        }
    }

    /**
     * Waits for the handover notice until the next heartbeat, the deadline, the end of the holder's lease, or a release
     * that handed the key to nobody, whichever comes first: a lease that runs out, or a release of readers or of a
     * plain holder, hands nothing over, so the first waiter must look.
     *
     * @param holderMillis the holder's remaining lease, or a negative number if unknown
     * @return the notice, or null if none came in time
     */
    private static FairHandovers.@Nullable Notice awaitNotice(
            CompletableFuture<FairHandovers.Notice> notice,
            CompletableFuture<Void> released,
            long deadline,
            long holderMillis)
            throws InterruptedException {
        long waitMillis = holderMillis >= 0 ? Math.min(HEARTBEAT_MILLIS, holderMillis + 1) : HEARTBEAT_MILLIS;
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(waitMillis);
        if (deadline != Waits.FOREVER) {
            waitNanos = Math.min(waitNanos, deadline - System.nanoTime());
        }
        try {
            CompletableFuture.anyOf(notice, released).get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException("a handover notice or release signal cannot fail", e);
        }
        return notice.getNow(null);
    }

    /**
     * Whether a handover happened before the waiter's last call, which did not find the lock handed to it: the
     * handed-over lease ran out before the waiter heard of it, and that call queued the ticket again.
     */
    private static boolean isStale(FairHandovers.Notice heard, FairCommands.Answer lastCall) {
        return heard.serverMillis() < lastCall.serverMillis();
    }

    /**
     * The earliest moment, by this process's monotonic clock, that Redis's time {@code handoverServerMillis} can have
     * been: Redis's time {@code sampleServerMillis} was no earlier than {@code sampleSentNanos}, when the call that
     * read it was sent, and both clocks advance alike but for a small rate allowance.
     */
    static long handoverNanos(long sampleSentNanos, long sampleServerMillis, long handoverServerMillis) {
        long elapsedMillis = handoverServerMillis - sampleServerMillis;
        long allowanceMillis = 2 + (long) Math.ceil(Math.abs(elapsedMillis) * CLOCK_RATE_ALLOWANCE);
        return Math.min(
                System.nanoTime(), sampleSentNanos + TimeUnit.MILLISECONDS.toNanos(elapsedMillis - allowanceMillis));
    }

    /**
     * Withdraws a ticket, and passes on a lock handed to it meanwhile; and again once each call of the waiter that is
     * still on its way answers: Redis may run such a call after the first withdrawal (a {@code NOSCRIPT} fallback does
     * not keep the order, and a call sent while a failover was under way may arrive late), queueing the ticket again or
     * granting it the lock. Waits up to {@link Waits#MIN_ANSWER_WAIT_NANOS} for the withdrawal, so that a caller whose
     * wait ended is normally out of the queue when it returns, and a release right after does not hand the key to a
     * waiter that has left.
     */
    private void leave(
            String key, String lockKey, String ticket, String token, List<ScriptCall<FairCommands.Answer>> sent) {
        ScriptCall<Long> withdrawal = commands.leave(key, lockKey, ticket, token);
        withdrawal.answer().exceptionally(error -> {
            log.debug(
                    "Could not withdraw from the queue of lock '{}'; the place expires: {}",
                    PrintableText.of(key),
                    error.toString());
            return 0L;
        });
        try {
            withdrawal.awaitUninterruptibly(Waits.MIN_ANSWER_WAIT_NANOS);
        } catch (TimeoutException | RuntimeException notYet) {
            // It goes on in the background; the ticket expires with its heartbeat timeout if Redis never runs it.
        }
        for (ScriptCall<FairCommands.Answer> call : sent) {
            if (!call.answer().isDone()) {
                call.answer().whenComplete((answer, error) -> commands.leave(key, lockKey, ticket, token));
            }
        }
    }

    /** This lock itself: it is already fair. */
    @Override
    public FairLock fair() {
        return this;
    }

    @Override
    public String toString() {
        return "FairLock[" + kit + "]";
    }
}
