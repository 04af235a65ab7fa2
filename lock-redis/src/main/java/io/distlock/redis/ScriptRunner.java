package io.distlock.redis;

import io.distlock.LockBackendException;
import io.lettuce.core.SocketOptions;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Runs the lock scripts through Spring Data Redis's reactive template ({@link
 * ReactiveStringRedisTemplate#execute(RedisScript, List, List)}) on the lock's connection factory, which sends each
 * script by SHA and by text after a NOSCRIPT.
 *
 * <p>Why the reactive template and not the blocking one: a waiting caller must stop waiting when its own wait ends,
 * and a thread must be able to release a lock while it is interrupted. A blocking call can be abandoned in neither
 * case; a {@link Call} can, since its answer arrives on the client's thread while the caller waits only as long as it
 * wants.
 *
 * <p>Until a connection has answered, and whenever the factory validates connections, scripts are started on a
 * distlock thread, since getting the connection may then block on the network: never on the caller's thread, never on
 * the client's I/O thread. That thread sends them one at a time, in the order they were started, and a script started
 * while any wait there waits behind them: a release must not reach Redis before the acquisition it releases. Redis
 * can still run two scripts out of order when one of them is sent again by {@code EVAL} after a {@code NOSCRIPT}
 * (a restarted server); so whoever releases before an acquisition has answered releases again after a late grant
 * ({@link LockCommands.Attempt#abandon}, {@link LateGrants}).
 */
final class ScriptRunner {

    /**
     * A connection factory that does not share its connection takes one from its pool per script; when none is free,
     * the script starts again after this long, doubling up to {@link #POOL_RETRY_MAX}, within the command timeout.
     */
    private static final Duration POOL_RETRY_FIRST = Duration.ofMillis(1);

    private static final Duration POOL_RETRY_MAX = Duration.ofMillis(20);

    private final LettuceConnectionFactory connectionFactory;
    private final ReactiveStringRedisTemplate template;
    private final long commandTimeoutNanos;
    private final long connectTimeoutNanos;
    /** Whether getting the shared connection sends a validating PING each time. */
    private final boolean connectingMayBlock;
    /** Whether each script takes a connection of its own from the factory's pool, which fails when exhausted. */
    private final boolean connectionPerScript;

    private final ExecutorService connector;
    private final Scheduler connectorScheduler;
    /** Sends the scripts that cannot be sent from the caller's thread, one at a time and in order. */
    private final ExecutorService orderedSender;
    /** How many scripts wait for {@link #orderedSender}; while any do, later scripts queue behind them. */
    private final AtomicInteger queuedScripts = new AtomicInteger();
    /** Set once a script was answered: from then on, the connection is had without blocking. */
    private volatile boolean connected;

    private volatile boolean sharedConnectionsOpen;

    ScriptRunner(LettuceConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
        this.template = new ReactiveStringRedisTemplate(connectionFactory);
        this.commandTimeoutNanos =
                Duration.ofMillis(connectionFactory.getTimeout()).toNanos();
        this.connectTimeoutNanos = connectionFactory
                .getClientConfiguration()
                .getClientOptions()
                .map(options -> options.getSocketOptions().getConnectTimeout())
                .orElse(SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION)
                .toNanos();
        this.connectingMayBlock = connectionFactory.getValidateConnection();
        this.connectionPerScript = !connectionFactory.getShareNativeConnection();
        this.connector =
                new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                    Thread thread = new Thread(task, "distlock-connector");
                    thread.setDaemon(true);
                    return thread;
                });
        this.connectorScheduler = Schedulers.fromExecutorService(connector, "distlock-connector");
        ThreadPoolExecutor sender =
                new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "distlock-connector");
                    thread.setDaemon(true);
                    return thread;
                });
        sender.allowCoreThreadTimeOut(true);
        this.orderedSender = sender;
    }

    long commandTimeoutNanos() {
        return commandTimeoutNanos;
    }

    /** Whether a script has been answered: from then on, connections are had without connecting. */
    boolean isConnected() {
        return connected;
    }

    /**
     * How long the answer to a script sent now may take: the command timeout, plus the client's connect timeout until
     * a script has been answered once, since the first script also connects.
     */
    long answerTimeoutNanos() {
        return connected ? commandTimeoutNanos : commandTimeoutNanos + connectTimeoutNanos;
    }

    /**
     * Starts a script. Its answer is the script's value decoded by {@code decode}, on a client thread; it fails with
     * {@link LockBackendException}, whose cause is Spring Data Redis's translated {@link
     * org.springframework.dao.DataAccessException} or the decoding failure.
     */
    <T> Call<T> run(
            String key,
            String operation,
            RedisScript<?> script,
            List<String> keys,
            List<String> args,
            Function<Object, T> decode) {
        @SuppressWarnings("unchecked")
        RedisScript<Object> untyped = (RedisScript<Object>) script;
        // Every script answers one value: a number, or one list for a script that returns a table.
        return start(key, operation, template.execute(untyped, keys, args).singleOrEmpty(), decode);
    }

    /**
     * Like {@link #run}, for a script whose answer may grant a lock: a grant counts only once {@code acknowledgement}
     * has the replicas' acknowledgement, and fails with {@link LockBackendException} otherwise, leaving the caller to
     * free it. The script and its {@code WAIT} block a distlock thread, since Spring Data Redis's reactive API cannot
     * send {@code WAIT}; the caller still waits only as long as it wants.
     */
    <T> Call<T> runAcknowledged(
            String key,
            String operation,
            RedisScript<?> script,
            List<String> keys,
            List<String> args,
            Predicate<Object> isGrant,
            ReplicaAcknowledgement acknowledgement,
            Function<Object, T> decode) {
        long commandTimeoutMillis = TimeUnit.NANOSECONDS.toMillis(commandTimeoutNanos);
        Mono<Object> answer = Mono.fromCallable(() -> {
                    try (RedisConnection connection = connectionFactory.getConnection()) {
                        return acknowledgement.run(connection, script, keys, args, isGrant, commandTimeoutMillis);
                    }
                })
                .subscribeOn(connectorScheduler);
        return start(key, operation, answer, decode);
    }

    private <T> Call<T> start(String key, String operation, Mono<Object> answer, Function<Object, T> decode) {
        Call<T> call = new Call<>(key, operation, commandTimeoutNanos);
        Mono<T> execution = answer.map(decode);
        if (connectionPerScript) {
            long startNanos = System.nanoTime();
            execution = execution.retryWhen(Retry.backoff(Long.MAX_VALUE, POOL_RETRY_FIRST)
                    .maxBackoff(POOL_RETRY_MAX)
                    .filter(error -> poolExhausted(error) && System.nanoTime() - startNanos < commandTimeoutNanos));
        }
        if (!connected || connectingMayBlock || queuedScripts.get() > 0) {
            queuedScripts.incrementAndGet();
            Mono<T> onceConnected = execution;
            orderedSender.execute(() -> {
                try {
                    openSharedConnections();
                    // Taken once the connections exist: a lease starts no earlier, however long connecting took.
                    call.sentNanos = System.nanoTime();
                    send(call, onceConnected);
                } catch (RuntimeException e) {
                    call.answer.completeExceptionally(failure(key, operation, e));
                } finally {
                    queuedScripts.decrementAndGet();
                }
            });
        } else {
            // Taken before the script can reach Redis: a lease counted from here ends no later than Redis's.
            call.sentNanos = System.nanoTime();
            send(call, execution);
        }
        return call;
    }

    /** Subscribes to a script's execution, which sends it to Redis on the calling thread once connected. */
    private <T> void send(Call<T> call, Mono<T> execution) {
        execution.subscribe(
                value -> {
                    connected = true;
                    call.answer.complete(value);
                },
                error -> call.answer.completeExceptionally(failure(call.key, call.operation, error)),
                () -> call.answer.completeExceptionally(
                        failure(call.key, call.operation, new IllegalStateException("the script answered nothing"))));
    }

    /**
     * Opens the factory's shared connections, blocking and reactive, before distlock's first script and on a distlock
     * thread. The factory makes its shared connections under one lock, and the subscription and the eviction check use
     * the blocking one: opened later, while Redis is slow, it would hold up every caller whose script asks the factory
     * for the reactive connection meanwhile.
     */
    private void openSharedConnections() {
        if (!sharedConnectionsOpen && connectionFactory.getShareNativeConnection()) {
            connectionFactory.getConnection().close();
            ReactiveRedisConnection reactive = connectionFactory.getReactiveConnection();
            reactive.close();
            sharedConnectionsOpen = true;
        }
    }

    /**
     * Whether a script failed only because the connection pool had no connection free: the client's asynchronous pool
     * fails at once instead of waiting, and nothing was sent, so the script may simply be started again.
     */
    private static boolean poolExhausted(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof NoSuchElementException) {
                return true;
            }
        }
        return false;
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
        // Spring's translated exception says little ("Error in execution"); the client's cause says what Redis said.
        String reason = NestedExceptionUtils.getMostSpecificCause(error).getMessage();
        return new LockBackendException(key, "Redis failed to " + operation + " lock '" + key + "': " + reason, error);
    }

    static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /**
     * A script on its way to Redis, and its answer.
     *
     * @param <T> the type of the answer
     */
    static final class Call<T> {

        private final String key;
        private final String operation;
        private final long commandTimeoutNanos;
        private final CompletableFuture<T> answer = new CompletableFuture<>();
        private final Supplier<String> progress;
        private volatile long sentNanos;

        private Call(String key, String operation, long commandTimeoutNanos) {
            this(key, operation, commandTimeoutNanos, () -> "");
        }

        private Call(String key, String operation, long commandTimeoutNanos, Supplier<String> progress) {
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
        static <T> Call<T> combined(String key, String operation, long commandTimeoutNanos, Supplier<String> progress) {
            return new Call<>(key, operation, commandTimeoutNanos, progress);
        }

        /** Answers a {@linkplain #combined combined} call, whose commands were sent at {@code sentNanos} or later. */
        void complete(long sentNanos, T value) {
            this.sentNanos = sentNanos;
            answer.complete(value);
        }

        /** Fails a {@linkplain #combined combined} call. */
        void fail(Throwable error) {
            answer.completeExceptionally(failure(key, operation, error));
        }

        /** Completes with Redis's answer, on a client thread; fails with {@link LockBackendException}. */
        CompletableFuture<T> answer() {
            return answer;
        }

        /** When the script was sent, by the monotonic clock: Redis ran it no earlier. Valid once answered. */
        long sentNanos() {
            return sentNanos;
        }

        /**
         * Waits for the answer.
         *
         * @throws TimeoutException if no answer came within {@code timeoutNanos}; the script may still run
         * @throws InterruptedException if interrupted while waiting; the script may still run
         * @throws LockBackendException if Redis or the client reported a failure
         */
        T await(long timeoutNanos) throws TimeoutException, InterruptedException {
            try {
                return answer.get(timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw failure(key, operation, e.getCause());
            }
        }

        /** Like {@link #await} for callers that cannot be interrupted; the interrupt status is restored afterwards. */
        T awaitUninterruptibly(long timeoutNanos) throws TimeoutException {
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
        T awaitAnswer() {
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
        CompletableFuture<T> answerWithinTimeout() {
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
        LockBackendException timedOut(long waitedNanos) {
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
    }
}
