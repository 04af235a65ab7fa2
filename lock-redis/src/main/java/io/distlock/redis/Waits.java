package io.distlock.redis;

import io.distlock.spi.LockArguments;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * What the waiting acquisitions of the Redis locks (exclusive, fair and read) share: which waits are valid, when a wait
 * is over, and how long Redis's answer is awaited within it.
 */
final class Waits {

    /** A waiter whose wait is nearly over still gives Redis this long to answer, so a healthy Redis never fails it. */
    static final long MIN_ANSWER_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private Waits() {}

    /**
     * The wait in nanoseconds, where a wait too long to count is as good as forever.
     *
     * @throws IllegalArgumentException naming what is allowed if the wait is null or negative
     */
    static long nanos(@Nullable Duration wait) {
        return LockArguments.waitNanos(wait);
    }

    /** When a wait of {@code waitNanos} that starts now ends; {@link WaitingRoom#FOREVER} never does. */
    static long deadline(long waitNanos) {
        return waitNanos == WaitingRoom.FOREVER ? WaitingRoom.FOREVER : System.nanoTime() + waitNanos;
    }

    static boolean isOver(long deadline) {
        return deadline != WaitingRoom.FOREVER && System.nanoTime() - deadline >= 0;
    }

    /**
     * How long to wait for Redis's answer: until the caller's deadline, but at least {@link #MIN_ANSWER_WAIT_NANOS},
     * and never longer than the client would.
     */
    static long answerWait(long answerTimeoutNanos, long deadline) {
        if (deadline == WaitingRoom.FOREVER) {
            return answerTimeoutNanos;
        }
        return Math.min(answerTimeoutNanos, Math.max(deadline - System.nanoTime(), MIN_ANSWER_WAIT_NANOS));
    }

    /**
     * Waits uninterruptibly, no longer than the client would, for the answer to an attempt made once, without waiting
     * for the lock; an interrupt is kept for the caller.
     *
     * @param giveUp runs when the answer will not be used: Redis failed, or did not answer in time
     * @throws io.distlock.LockBackendException if Redis failed or did not answer in time
     */
    static <T> T answerOnce(ScriptCall<T> call, long answerTimeoutNanos, Runnable giveUp) {
        try {
            return call.awaitUninterruptibly(answerTimeoutNanos);
        } catch (TimeoutException e) {
            giveUp.run();
            throw call.timedOut(answerTimeoutNanos);
        } catch (RuntimeException e) {
            giveUp.run();
            throw e;
        }
    }

    /**
     * Waits for the answer to a waiting acquisition's call within the caller's wait.
     *
     * @param answeredBefore whether Redis answered an earlier call of this acquisition
     * @param interruptible whether an interrupt ends the wait; otherwise it is kept for the caller
     * @param giveUp runs when the caller stops waiting for the answer without it
     * @return the answer, or null if the wait ended first although Redis had answered this acquisition before: then the
     *     lock was simply not acquired in time
     * @throws io.distlock.LockBackendException if Redis failed, or the wait ended and Redis had not answered this
     *     acquisition at all
     */
    static <T> @Nullable T answer(
            ScriptCall<T> call,
            long answerTimeoutNanos,
            long deadline,
            boolean answeredBefore,
            boolean interruptible,
            Runnable giveUp)
            throws InterruptedException {
        long timeout = answerWait(answerTimeoutNanos, deadline);
        try {
            return interruptible ? call.await(timeout) : call.awaitUninterruptibly(timeout);
        } catch (TimeoutException e) {
            giveUp.run();
            if (answeredBefore && isOver(deadline)) {
                return null;
            }
            throw call.timedOut(timeout);
        } catch (InterruptedException | RuntimeException e) {
            giveUp.run();
            throw e;
        }
    }
}
