package io.distlock.redis;

import io.distlock.LockBackendException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs the lock scripts by SHA on the application's Lettuce connection, loading a script only when Redis answers
 * NOSCRIPT.
 *
 * <p>Commands are sent asynchronously so that a caller can stop waiting when its own wait time ends instead of when
 * the client's command timeout does; a synchronous template call could not be abandoned.
 */
final class ScriptRunner {

    private final LettuceConnectionFactory connectionFactory;
    private final long commandTimeoutNanos;

    ScriptRunner(LettuceConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
        this.commandTimeoutNanos =
                Duration.ofMillis(connectionFactory.getTimeout()).toNanos();
    }

    long commandTimeoutNanos() {
        return commandTimeoutNanos;
    }

    /**
     * Sends a script. The returned future completes on a client thread; it fails with the client's exception.
     *
     * @throws LockBackendException if no connection could be had
     */
    <T> Sent<T> send(String key, String operation, RedisScript<?> script, byte[][] keys, byte[]... args) {
        RedisConnection connection;
        try {
            connection = connectionFactory.getConnection();
        } catch (RuntimeException e) {
            throw failure(key, operation, e);
        }
        try {
            RedisClusterAsyncCommands<byte[], byte[]> commands = ((LettuceConnection) connection).getNativeConnection();
            // Taken once the connection exists: a lease can start no earlier than this, however long connecting took.
            long sentNanos = System.nanoTime();
            ScriptOutputType type =
                    script.getResultType() == Long.class ? ScriptOutputType.INTEGER : ScriptOutputType.MULTI;
            CompletableFuture<T> result = commands.<T>evalsha(script.getSha1(), type, keys, args)
                    .toCompletableFuture()
                    .exceptionallyCompose(error -> unwrap(error) instanceof RedisNoScriptException
                            ? commands.<T>eval(
                                            script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
                                            type,
                                            keys,
                                            args)
                                    .toCompletableFuture()
                            : CompletableFuture.failedFuture(unwrap(error)));
            result.whenComplete((value, error) -> connection.close());
            return new Sent<>(result, sentNanos);
        } catch (RuntimeException e) {
            connection.close();
            throw failure(key, operation, e);
        }
    }

    /**
     * Waits for a sent script's answer.
     *
     * @throws TimeoutException if no answer came within {@code timeoutNanos}; the command may still run
     * @throws InterruptedException if interrupted while waiting; the command may still run
     * @throws LockBackendException if Redis or the client reported a failure
     */
    static <T> T await(CompletableFuture<T> future, long timeoutNanos, String key, String operation)
            throws TimeoutException, InterruptedException {
        try {
            return future.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw failure(key, operation, e.getCause());
        }
    }

    /** Waits like {@link #await} for at most the command timeout, turning a timeout into a backend failure. */
    <T> T awaitAnswer(CompletableFuture<T> future, String key, String operation) throws InterruptedException {
        try {
            return await(future, commandTimeoutNanos, key, operation);
        } catch (TimeoutException e) {
            throw timeout(key, operation, commandTimeoutNanos);
        }
    }

    /** Like {@link #awaitAnswer} for callers that cannot be interrupted; the interrupt status is restored afterwards. */
    <T> T awaitAnswerUninterruptibly(CompletableFuture<T> future, String key, String operation) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + commandTimeoutNanos;
        try {
            while (true) {
                try {
                    return await(future, Math.max(0, deadline - System.nanoTime()), key, operation);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (TimeoutException e) {
                    throw timeout(key, operation, commandTimeoutNanos);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A command on its way.
     *
     * @param answer completes with Redis's answer
     * @param sentNanos when it was sent, by the monotonic clock: Redis ran it no earlier
     */
    record Sent<T>(CompletableFuture<T> answer, long sentNanos) {}

    static LockBackendException timeout(String key, String operation, long waitedNanos) {
        return new LockBackendException(
                key,
                "Redis did not answer within " + TimeUnit.NANOSECONDS.toMillis(waitedNanos) + " ms when asked to "
                        + operation + " lock '" + key + "'",
                null);
    }

    static LockBackendException failure(String key, String operation, Throwable cause) {
        Throwable error = unwrap(cause);
        if (error instanceof LockBackendException backend) {
            return backend;
        }
        return new LockBackendException(
                key, "Redis failed to " + operation + " lock '" + key + "': " + error.getMessage(), error);
    }

    private static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
