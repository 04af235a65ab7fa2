package io.distlock.redis.internal.engine;

import io.distlock.LockHandle;
import io.distlock.redis.internal.engine.LockCommands.Attempted;
import io.distlock.redis.internal.engine.LockCommands.Busy;
import io.distlock.redis.internal.engine.LockCommands.Granted;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.waiting.ReleaseSignals;
import io.distlock.redis.internal.waiting.WaitingRoom;
import io.distlock.redis.internal.waiting.Waits;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The wait of the acquisitions that never queue in the {@link WaitingRoom}, readers and paths: try; after a refusal,
 * wait for the next release signal of the key (here or announced from another process) or for the end of the lease
 * that refused, whichever comes first; try again. An attempt that Redis did not answer, or failed for a reason that
 * passes, is tried again after a pause until the deadline ({@link Waits.Answers}).
 */
public final class SignalledWait {

    /** A waiter kept out by a hold without expiry looks again this often. */
    private static final long NO_EXPIRY_RECHECK_MILLIS = 1000;

    /**
     * Sends one attempt, under a token of its own: an attempt that went unanswered is abandoned, and its releases,
     * which compare its token, may reach Redis after the next attempt.
     */
    public interface Attempts {
        LockCommands.Attempt send(String token, boolean willWait);
    }

    /** Starts the hold of a granted attempt. */
    public interface Grants {
        LockHandle held(Granted granted, LockCommands.Attempt attempt);
    }

    private final LockKit kit;
    private final LockCommands commands;
    private final ReleaseSignals releases;

    public SignalledWait(LockKit kit, LockCommands commands, ReleaseSignals releases) {
        this.kit = kit;
        this.commands = commands;
        this.releases = releases;
    }

    /**
     * Tries until {@code waitNanos} have passed (0: once; {@link Waits#FOREVER}: no limit).
     *
     * @param releaseKey the key whose release signals wake this waiter
     * @return the handle, or null if the key stayed held for the whole wait
     */
    @Nullable
    public LockHandle take(
            String key, String releaseKey, long waitNanos, long deadline, Attempts attempts, Grants grants)
            throws InterruptedException {
        Waits.Answers answers = new Waits.Answers();
        while (true) {
            if (kit.isClosed()) {
                throw kit.closed(key);
            }
            CompletableFuture<Void> released = releases.next(releaseKey);
            boolean leaving = true;
            try {
                LockCommands.Attempt attempt = attempts.send(OwnerTokens.newToken(), waitNanos != 0);
                boolean firstAnswer = !answers.answeredBefore();
                Attempted answer;
                if (waitNanos == 0) {
                    answer = Waits.answerOnce(
                            attempt.call(), commands.answerTimeoutNanos(), () -> attempt.abandon(() -> {}));
                } else {
                    answer = Waits.answer(
                            attempt.call(),
                            commands.answerTimeoutNanos(),
                            deadline,
                            answers,
                            true,
                            () -> attempt.abandon(() -> {}));
                    if (answer == null && !answers.tryAgain()) {
                        return null;
                    }
                }
                if (answer == null) {
                    // Not answered yet (a failover, say): look again after a pause, or at a release.
                    awaitRelease(released, TimeUnit.NANOSECONDS.toMillis(answers.pauseNanos(deadline)), deadline);
                } else {
                    if (firstAnswer) {
                        kit.startBackgroundWork();
                    }
                    if (answer instanceof Granted granted) {
                        return grants.held(granted, attempt);
                    }
                    if (waitNanos == 0) {
                        return null;
                    }
                    kit.waitsFor(releaseKey, false);
                    awaitRelease(released, ((Busy) answer).holderTtlMillis(), deadline);
                }
                if (Waits.isOver(deadline)) {
                    return answers.over();
                }
                leaving = false;
            } finally {
                // A wake-up that only this waiter got, and that it leaves without trying again, goes to the next one.
                releases.forget(releaseKey, released, leaving);
            }
        }
    }

    /** Waits for a release of the key, at most until the lease that refused ends, or the deadline. */
    private static void awaitRelease(CompletableFuture<Void> released, long holderTtlMillis, long deadline)
            throws InterruptedException {
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(
                holderTtlMillis < 0 ? NO_EXPIRY_RECHECK_MILLIS : Math.min(holderTtlMillis + 1, Integer.MAX_VALUE));
        if (deadline != Waits.FOREVER) {
            waitNanos = Math.min(waitNanos, deadline - System.nanoTime());
        }
        try {
            released.get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // The lease that refused has ended, or the wait has: look again.
        } catch (ExecutionException e) {
            throw new IllegalStateException("a release signal cannot fail", e);
        }
    }
}
