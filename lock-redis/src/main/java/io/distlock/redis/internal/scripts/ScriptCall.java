package io.distlock.redis.internal.scripts;

import io.distlock.LockBackendException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.springframework.core.NestedExceptionUtils;

/**
 * One script on its way to Redis, started by {@link ScriptRunner}, or a call made of several, and its answer; its
 * failures are {@link LockBackendException}s that say what Redis was asked.
 *
 * @param <T> the type of the answer
 */
public final class ScriptCall<T> {

    private final String key;
    private final String operation;
    private final long commandTimeoutNanos;
    private final CompletableFuture<T> answer = new CompletableFuture<>();
    private final Supplier<String> progress;
    private volatile long sentNanos;

    /** A call of one script, which {@link ScriptRunner} sends and answers. */
    ScriptCall(String key, String operation, long commandTimeoutNanos) {
        this(key, operation, commandTimeoutNanos, () -> "");
    }

    private ScriptCall(String key, String operation, long commandTimeoutNanos, Supplier<String> progress) {
        this.key = key;
        this.operation = operation;
        this.commandTimeoutNanos = commandTimeoutNanos;
        this.progress = progress;
    }

    /**
     * A call whose answer is made of other calls' answers, given by {@link #complete} or {@link #fail}.
     *
     * @param progress what the call has heard so far, for the message of a caller that stopped waiting
     */
    public static <T> ScriptCall<T> combined(
            String key, String operation, long commandTimeoutNanos, Supplier<String> progress) {
        return new ScriptCall<>(key, operation, commandTimeoutNanos, progress);
    }

    /** Answers a {@linkplain #combined combined} call, whose commands were sent at {@code sentNanos} or later. */
    public void complete(long sentNanos, T value) {
        this.sentNanos = sentNanos;
        answer.complete(value);
    }

    /** Takes the moment the script is sent: a lease counted from here ends no later than Redis's. */
    void sending() {
        sentNanos = System.nanoTime();
    }

    /** Answers a call of one script with Redis's answer. */
    void answered(T value) {
        answer.complete(value);
    }

    /** Fails the call with what Redis, the client or the decoding reported. */
    public void fail(Throwable error) {
        answer.completeExceptionally(failure(key, operation, error));
    }

    /** Completes with Redis's answer, on a client thread; fails with {@link LockBackendException}. */
    public CompletableFuture<T> answer() {
        return answer;
    }

    /** When the script was sent, by the monotonic clock: Redis ran it no earlier. Valid once answered. */
    public long sentNanos() {
        return sentNanos;
    }

    /**
     * Waits for the answer.
     *
     * @throws TimeoutException if no answer came within {@code timeoutNanos}; the script may still run
     * @throws InterruptedException if interrupted while waiting; the script may still run
     * @throws LockBackendException if Redis or the client reported a failure
     */
    public T await(long timeoutNanos) throws TimeoutException, InterruptedException {
        try {
            return answer.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw failure(key, operation, e.getCause());
        }
    }

    /** Like {@link #await} for callers that cannot be interrupted; the interrupt status is restored afterwards. */
    public T awaitUninterruptibly(long timeoutNanos) throws TimeoutException {
        boolean interrupted = false;
        long deadline = System.nanoTime() + timeoutNanos;
        try {
            while (true) {
                try {
                    return await(Math.max(0, deadline - System.nanoTime()));
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

    /** Waits uninterruptibly for at most the command timeout, turning a timeout into a backend failure. */
    public T awaitAnswer() {
        try {
            return awaitUninterruptibly(commandTimeoutNanos);
        } catch (TimeoutException e) {
            throw timedOut(commandTimeoutNanos);
        }
    }

    /**
     * The answer without waiting for it: completes on a client thread, or fails with {@link LockBackendException}
     * if Redis failed or did not answer within the command timeout.
     */
    public CompletableFuture<T> answerWithinTimeout() {
        CompletableFuture<T> within = new CompletableFuture<>();
        answer.copy().orTimeout(commandTimeoutNanos, TimeUnit.NANOSECONDS).whenComplete((value, error) -> {
            if (error == null) {
                within.complete(value);
            } else if (unwrap(error) instanceof TimeoutException) {
                within.completeExceptionally(timedOut(commandTimeoutNanos));
            } else {
                within.completeExceptionally(failure(key, operation, error));
            }
        });
        return within;
    }

    /** The failure for a caller that stopped waiting after {@code waitedNanos}. */
    public LockBackendException timedOut(long waitedNanos) {
        String heard = progress.get();
        if (heard.isEmpty()) {
            return timeout(key, operation, waitedNanos);
        }
        return new LockBackendException(
                key,
                "Redis did not answer within " + TimeUnit.NANOSECONDS.toMillis(waitedNanos) + " ms when asked to "
                        + operation + " lock '" + key + "': " + heard,
                null);
    }

    static LockBackendException timeout(String key, String operation, long waitedNanos) {
        return new LockBackendException(
                key,
                "Redis did not answer within " + TimeUnit.NANOSECONDS.toMillis(waitedNanos) + " ms when asked to "
                        + operation + " lock '" + key + "'",
                null);
    }

    public static LockBackendException failure(String key, String operation, Throwable cause) {
        Throwable error = unwrap(cause);
        if (error instanceof LockBackendException backend) {
            return backend;
        }
        // Spring's translated exception says little ("Error in execution"); the client's cause says what Redis said.
        String reason = NestedExceptionUtils.getMostSpecificCause(error).getMessage();
        return new LockBackendException(key, "Redis failed to " + operation + " lock '" + key + "': " + reason, error);
    }

    public static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
