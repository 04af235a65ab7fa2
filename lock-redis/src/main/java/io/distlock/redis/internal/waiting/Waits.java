package io.distlock.redis.internal.waiting;

import io.distlock.LockBackendException;
import io.distlock.internal.engine.LockArguments;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * What the waiting acquisitions of the Redis locks (exclusive, fair and read) share: which waits are valid, when a wait
 * is over, and how long Redis's answer is awaited within it.
 */
public final class Waits {

    /** The deadline of a wait without one. */
    public static final long FOREVER = Long.MAX_VALUE;

    /** A waiter whose wait is nearly over still gives Redis this long to answer, so a healthy Redis never fails it. */
    public static final long MIN_ANSWER_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /** The pause after the first attempt of a wait that went unanswered ({@link Answers}). */
    static final long UNANSWERED_PAUSE_FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** The longest pause between attempts that go unanswered. */
    static final long UNANSWERED_PAUSE_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** The starts of Redis's error replies that a failover leaves behind for a moment ({@link #passes}). */
    private static final List<String> PASSING_ERRORS =
            List.of("READONLY", "LOADING", "MASTERDOWN", "NOREPLICAS", "BUSY", "TRYAGAIN", "CLUSTERDOWN");

    private Waits() {}

    /**
     * The wait in nanoseconds, where a wait too long to count is as good as forever.
     *
     * @throws IllegalArgumentException naming what is allowed if the wait is null or negative
     */
    public static long nanos(@Nullable Duration wait) {
        return LockArguments.waitNanos(wait);
    }

    /** When a wait of {@code waitNanos} that starts now ends; {@link Waits#FOREVER} never does. */
    public static long deadline(long waitNanos) {
        return waitNanos == Waits.FOREVER ? Waits.FOREVER : System.nanoTime() + waitNanos;
    }

    public static boolean isOver(long deadline) {
        return deadline != Waits.FOREVER && System.nanoTime() - deadline >= 0;
    }

    /**
     * How long to wait for Redis's answer: until the caller's deadline, but at least {@link #MIN_ANSWER_WAIT_NANOS},
     * and never longer than the client would.
     */
    public static long answerWait(long answerTimeoutNanos, long deadline) {
        if (deadline == Waits.FOREVER) {
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
    public static <T> T answerOnce(ScriptCall<T> call, long answerTimeoutNanos, Runnable giveUp) {
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
     * Waits for the answer to one attempt of a waiting acquisition within the caller's wait. An attempt that failed
     * for a reason that passes ({@link #passes}), or that Redis did not answer in time, is given up and counted in
     * {@code answers}: with time left in a bounded wait, the caller tries again after {@link Answers#pauseNanos}.
     *
     * @param answers what Redis answered this acquisition's earlier attempts; told of this one's outcome
     * @param interruptible whether an interrupt ends the wait; otherwise it is kept for the caller
     * @param giveUp runs when the caller stops waiting for the answer without it
     * @return the answer; or null if there is none to use, and then {@link Answers#tryAgain()} says whether the wait
     *     goes on, or is over without the lock because Redis had answered this acquisition before
     * @throws io.distlock.LockBackendException if Redis failed for a reason that does not pass; or the attempt went
     *     unanswered in a wait without a deadline; or the wait ended and Redis had not answered this acquisition at all
     */
    public static <T> @Nullable T answer(
            ScriptCall<T> call,
            long answerTimeoutNanos,
            long deadline,
            Answers answers,
            boolean interruptible,
            Runnable giveUp)
            throws InterruptedException {
        long timeout = answerWait(answerTimeoutNanos, deadline);
        LockBackendException unanswered;
        try {
            T value = interruptible ? call.await(timeout) : call.awaitUninterruptibly(timeout);
            answers.answered();
            return value;
        } catch (TimeoutException e) {
            giveUp.run();
            unanswered = call.timedOut(timeout);
        } catch (LockBackendException e) {
            giveUp.run();
            unanswered = e;
        } catch (InterruptedException | RuntimeException e) {
            giveUp.run();
            throw e;
        }
        answers.unanswered(unanswered, deadline);
        return null;
    }

    /**
     * Whether a failure leaves Redis's answer unknown for a reason that passes, as it does while a primary fails over:
     * the connection is down, refused or being made again, the command timed out (in the client or in distlock), or
     * Redis answered with an error that a failover leaves behind for a moment ({@code READONLY} from a demoted
     * primary, {@code LOADING}, {@code MASTERDOWN}, {@code NOREPLICAS}, {@code BUSY}, {@code TRYAGAIN}, {@code
     * CLUSTERDOWN}). Any other error (a script error, {@code WRONGTYPE}, {@code NOAUTH}, too few replica
     * acknowledgements) does not pass by trying again.
     */
    static boolean passes(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RedisCommandExecutionException error) {
                String reply = String.valueOf(error.getMessage());
                return PASSING_ERRORS.stream().anyMatch(reply::startsWith);
            }
            if (cause instanceof TimeoutException
                    || cause instanceof QueryTimeoutException
                    || cause instanceof RedisConnectionFailureException
                    || cause instanceof RedisException
                    || cause instanceof IOException) {
                // The client's own failures: timeouts, refused or lost connections, commands rejected while
                // disconnected. Redis's error replies are RedisCommandExecutionExceptions, above.
                return true;
            }
            if (cause instanceof LockBackendException && cause.getCause() == null) {
                // distlock's own "did not answer within", or a Redlock vote the silent nodes left undecided.
                return true;
            }
        }
        return false;
    }

    /**
     * What Redis answered the attempts of one waiting acquisition, which decides what an attempt that went unanswered
     * means: as {@link io.distlock.Lock} says, a waiting form fails only if Redis never answered within its wait. An
     * attempt that failed for a reason that passes, or was not answered in time, counts as "not answered yet": a
     * bounded wait tries again after a pause (50 ms, doubling up to 500 ms, never past the deadline) until its
     * deadline, and so rides out a failover that ends before it does. A wait without a deadline has no end to ride out
     * to: it fails at once, as before. Not thread-safe: one acquisition's steps use it in turn.
     */
    public static final class Answers {

        private boolean answered;
        private @Nullable LockBackendException lastUnanswered;
        private int unansweredInARow;
        private boolean tryAgain;

        /** Whether Redis answered an attempt of this acquisition. */
        public boolean answeredBefore() {
            return answered;
        }

        /** Redis answered an attempt. */
        public void answered() {
            answered = true;
            lastUnanswered = null;
            unansweredInARow = 0;
        }

        /**
         * An attempt failed or was not answered in time, and has been given up: decides whether the wait goes on
         * ({@link #tryAgain()}).
         *
         * @throws LockBackendException {@code failure} if it does not pass, if the wait has no deadline, or if the wait
         *     is over and Redis never answered this acquisition
         */
        public void unanswered(LockBackendException failure, long deadline) {
            if (deadline == Waits.FOREVER || !passes(failure)) {
                throw failure;
            }
            if (isOver(deadline)) {
                if (!answered) {
                    throw failure;
                }
                tryAgain = false;
                return;
            }
            lastUnanswered = failure;
            unansweredInARow++;
            tryAgain = true;
        }

        /** After an unanswered attempt: true to try again after {@link #pauseNanos}, false if the wait is over. */
        public boolean tryAgain() {
            return tryAgain;
        }

        /**
         * How long to pause after the last unanswered attempt before the next: 50 ms after the first in a row, twice
         * as long after each next one, up to 500 ms, and never past the deadline.
         */
        public long pauseNanos(long deadline) {
            long pause = Math.min(
                    UNANSWERED_PAUSE_FIRST_NANOS << Math.min(unansweredInARow - 1, 16), UNANSWERED_PAUSE_MAX_NANOS);
            return deadline == Waits.FOREVER ? pause : Math.max(0, Math.min(pause, deadline - System.nanoTime()));
        }

        /**
         * The end of a wait that did not get the lock: not acquired if Redis answered this acquisition, or if none of
         * its attempts went unanswered.
         *
         * @return null, for "not acquired"
         * @throws LockBackendException the last unanswered attempt's failure, if Redis never answered
         */
        public <T> @Nullable T over() {
            LockBackendException failure = lastUnanswered;
            if (!answered && failure != null) {
                throw failure;
            }
            return null;
        }
    }
}
