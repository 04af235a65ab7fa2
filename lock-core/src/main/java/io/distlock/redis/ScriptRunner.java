package io.distlock.redis;

import io.distlock.LockBackendException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs the lock scripts by SHA on the application's Lettuce connection, loading a script only when Redis answers
 * NOSCRIPT.
 *
 * <p>Commands are sent asynchronously so that a caller can stop waiting when its own wait time ends instead of when
 * the client's command timeout does; a synchronous template call could not be abandoned. For the same reason, a
 * connection that may block to be had (the first connect, a pool borrow, a validating factory) is taken on a distlock
 * thread, never on the caller's and never on the client's I/O thread.
 *
 * <p>An acquisition attempt keeps its connection until the caller decides: {@link Sent#finish()} when it used the
 * answer, {@link Sent#abandon} when it gave up. Abandoning sends a token-checked release on the same connection, which
 * Redis runs after the attempt, so a lock granted after its caller gave up is always freed again.
 */
final class ScriptRunner {

    private static final Logger log = LoggerFactory.getLogger(ScriptRunner.class);

    private final LettuceConnectionFactory connectionFactory;
    private final long commandTimeoutNanos;
    private final long connectTimeoutNanos;
    /** Whether getting a connection can block: a pool borrow, or a validation PING on every call. */
    private final boolean connectingMayBlock;

    private final ExecutorService connector;
    /** Set once a connection has answered: from then on, the shared connection is had without blocking. */
    private volatile boolean connected;

    ScriptRunner(LettuceConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
        this.commandTimeoutNanos =
                Duration.ofMillis(connectionFactory.getTimeout()).toNanos();
        this.connectTimeoutNanos = connectionFactory
                .getClientConfiguration()
                .getClientOptions()
                .map(options -> options.getSocketOptions().getConnectTimeout())
                .orElse(SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION)
                .toNanos();
        this.connectingMayBlock =
                !connectionFactory.getShareNativeConnection() || connectionFactory.getValidateConnection();
        this.connector =
                new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                    Thread thread = new Thread(task, "distlock-connector");
                    thread.setDaemon(true);
                    return thread;
                });
    }

    long commandTimeoutNanos() {
        return commandTimeoutNanos;
    }

    /** Whether a connection has answered: from then on, connections are had without connecting. */
    boolean isConnected() {
        return connected;
    }

    /**
     * How long the answer to a script sent now may take: the command timeout, plus the client's connect timeout until
     * a connection has answered once, since the first script also connects.
     */
    long answerTimeoutNanos() {
        return connected ? commandTimeoutNanos : commandTimeoutNanos + connectTimeoutNanos;
    }

    /**
     * Sends a script; its connection is given back once Redis answered. The answer completes on a client thread, or
     * fails with {@link LockBackendException} when no connection could be had or Redis failed.
     */
    <T> Sent<T> send(String key, String operation, RedisScript<?> script, byte[][] keys, byte[]... args) {
        return start(new Sent<>(key, operation, false), script, keys, args);
    }

    /**
     * Sends an acquisition attempt, whose connection stays taken until {@link Sent#finish()} or {@link Sent#abandon}:
     * exactly one of them must follow.
     */
    <T> Sent<T> sendAttempt(String key, String operation, RedisScript<?> script, byte[][] keys, byte[]... args) {
        return start(new Sent<>(key, operation, true), script, keys, args);
    }

    private <T> Sent<T> start(Sent<T> sent, RedisScript<?> script, byte[][] keys, byte[][] args) {
        if (connected && !connectingMayBlock) {
            sent.dispatch(script, keys, args);
        } else {
            try {
                connector.execute(() -> sent.dispatch(script, keys, args));
            } catch (RuntimeException e) {
                sent.fail(e);
            }
        }
        return sent;
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

    /** Like {@link #await} for callers that cannot be interrupted; the interrupt status is restored afterwards. */
    static <T> T awaitUninterruptibly(CompletableFuture<T> future, long timeoutNanos, String key, String operation)
            throws TimeoutException {
        boolean interrupted = false;
        long deadline = System.nanoTime() + timeoutNanos;
        try {
            while (true) {
                try {
                    return await(future, Math.max(0, deadline - System.nanoTime()), key, operation);
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
    <T> T awaitAnswerUninterruptibly(CompletableFuture<T> future, String key, String operation) {
        try {
            return awaitUninterruptibly(future, commandTimeoutNanos, key, operation);
        } catch (TimeoutException e) {
            throw timeout(key, operation, commandTimeoutNanos);
        }
    }

    /**
     * Runs work that may block on Redis on a distlock thread. The threads end when idle and are never shut down, since
     * handles must still be released after the lock was closed.
     */
    void inBackground(Runnable task) {
        connector.execute(task);
    }

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

    /**
     * A command on its way, and the connection it went out on.
     *
     * @param <T> the type of Redis's answer
     */
    final class Sent<T> {

        private final String key;
        private final String operation;
        private final boolean attempt;
        private final CompletableFuture<T> answer = new CompletableFuture<>();
        /** Uses of the connection still open: the command, and for an attempt the caller's decision. */
        private final AtomicInteger uses;

        private volatile long sentNanos;
        private @Nullable RedisConnection connection;
        private @Nullable RedisClusterAsyncCommands<byte[], byte[]> commands;
        private boolean abandoned;

        private Sent(String key, String operation, boolean attempt) {
            this.key = key;
            this.operation = operation;
            this.attempt = attempt;
            this.uses = new AtomicInteger(attempt ? 2 : 1);
        }

        /** Completes with Redis's answer, on a client thread. */
        CompletableFuture<T> answer() {
            return answer;
        }

        /** When the command was sent, by the monotonic clock: Redis ran it no earlier. Valid once answered. */
        long sentNanos() {
            return sentNanos;
        }

        /** The caller used the attempt's answer; its connection may be given back. */
        void finish() {
            if (attempt) {
                giveBack();
            }
        }

        /**
         * The caller gave up on the attempt: sends a release of {@code token} on the attempt's connection, so that Redis
         * runs it after the attempt and frees the lock if it was granted, and gives the connection back afterwards.
         *
         * @return completes when the release was answered (or could not be sent), never exceptionally
         */
        CompletableFuture<Void> abandon(RedisScript<?> release, byte[][] keys, byte[]... args) {
            CompletableFuture<Void> released = new CompletableFuture<>();
            synchronized (this) {
                abandoned = true;
                if (commands == null) {
                    // Never sent: nothing to undo.
                    released.complete(null);
                } else {
                    evalsha(commands, release, keys, args, false).whenComplete((result, error) -> {
                        if (error != null) {
                            log.warn(
                                    "Lock '{}' could not be released after its caller stopped waiting; it expires "
                                            + "with its lease: {}",
                                    key,
                                    unwrap(error).toString());
                        }
                        released.complete(null);
                    });
                }
            }
            released.whenComplete((done, error) -> giveBack());
            return released;
        }

        private void dispatch(RedisScript<?> script, byte[][] keys, byte[][] args) {
            RedisConnection opened;
            RedisClusterAsyncCommands<byte[], byte[]> nativeCommands;
            try {
                opened = connectionFactory.getConnection();
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            try {
                // Outside the monitor: a pool borrow may block, and abandon() must never wait for it.
                nativeCommands = ((LettuceConnection) opened).getNativeConnection();
            } catch (RuntimeException e) {
                closeQuietly(opened);
                fail(e);
                return;
            }
            synchronized (this) {
                connection = opened;
                if (abandoned) {
                    fail(new IllegalStateException("abandoned before it was sent"));
                    return;
                }
                commands = nativeCommands;
                // Taken once the connection exists: a lease starts no earlier, however long connecting took.
                sentNanos = System.nanoTime();
                this.<T>evalsha(nativeCommands, script, keys, args, true).whenComplete((value, error) -> {
                    if (error == null) {
                        connected = true;
                        answer.complete(value);
                    } else {
                        answer.completeExceptionally(failure(key, operation, error));
                    }
                    giveBack();
                });
            }
        }

        /**
         * Sends by SHA and, if Redis does not know the script, by text; a {@code cancellable} command is not sent again
         * by text once the attempt was abandoned, since the release sent meanwhile would then run before it.
         */
        private <R> CompletableFuture<R> evalsha(
                RedisClusterAsyncCommands<byte[], byte[]> on,
                RedisScript<?> script,
                byte[][] keys,
                byte[][] args,
                boolean cancellable) {
            ScriptOutputType type =
                    script.getResultType() == Long.class ? ScriptOutputType.INTEGER : ScriptOutputType.MULTI;
            return on.<R>evalsha(script.getSha1(), type, keys, args)
                    .toCompletableFuture()
                    .exceptionallyCompose(error -> {
                        if (!(unwrap(error) instanceof RedisNoScriptException)) {
                            return CompletableFuture.failedFuture(unwrap(error));
                        }
                        synchronized (this) {
                            if (cancellable && abandoned) {
                                return CompletableFuture.failedFuture(
                                        new IllegalStateException("abandoned before the script was loaded"));
                            }
                            return on.<R>eval(
                                            script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
                                            type,
                                            keys,
                                            args)
                                    .toCompletableFuture();
                        }
                    });
        }

        private void fail(Throwable error) {
            answer.completeExceptionally(failure(key, operation, error));
            giveBack();
        }

        private void giveBack() {
            if (uses.decrementAndGet() != 0) {
                return;
            }
            RedisConnection toClose;
            synchronized (this) {
                toClose = connection;
                connection = null;
            }
            if (toClose == null) {
                return;
            }
            if (connectingMayBlock) {
                // A pooled connection goes back to its pool, which may block: never on the client's I/O thread.
                try {
                    connector.execute(() -> closeQuietly(toClose));
                    return;
                } catch (RuntimeException rejected) {
                    // Closed: give it back here.
                }
            }
            closeQuietly(toClose);
        }

        private void closeQuietly(RedisConnection toClose) {
            try {
                toClose.close();
            } catch (RuntimeException e) {
                log.debug("Giving back a connection failed", e);
            }
        }
    }
}
