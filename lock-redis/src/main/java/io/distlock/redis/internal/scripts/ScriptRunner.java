package io.distlock.redis.internal.scripts;

import io.distlock.LockBackendException;
import io.lettuce.core.SocketOptions;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
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
 * case; a {@link ScriptCall} can, since its answer arrives on the client's thread while the caller waits only as long
 * as it wants.
 *
 * <p>Until a connection has answered, and whenever the factory validates connections, scripts are started on a
 * distlock thread, since getting the connection may then block on the network: never on the caller's thread, never on
 * the client's I/O thread. That thread sends them one at a time, in the order they were started, and a script started
 * while any wait there waits behind them: a release must not reach Redis before the acquisition it releases. Redis
 * can still run two scripts out of order when one of them is sent again by {@code EVAL} after a {@code NOSCRIPT}
 * (a restarted server); so whoever releases before an acquisition has answered releases again after a late grant
 * ({@link io.distlock.redis.internal.engine.LockCommands.Attempt#abandon}, {@link
 * io.distlock.redis.internal.redlock.LateGrants}).
 */
public final class ScriptRunner {

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

    public ScriptRunner(LettuceConnectionFactory connectionFactory) {
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

    public long commandTimeoutNanos() {
        return commandTimeoutNanos;
    }

    /** Whether a script has been answered: from then on, connections are had without connecting. */
    public boolean isConnected() {
        return connected;
    }

    /**
     * How long the answer to a script sent now may take: the command timeout, plus the client's connect timeout until
     * a script has been answered once, since the first script also connects.
     */
    public long answerTimeoutNanos() {
        return connected ? commandTimeoutNanos : commandTimeoutNanos + connectTimeoutNanos;
    }

    /**
     * Starts a script. Its answer is the script's value decoded by {@code decode}, on a client thread; it fails with
     * {@link LockBackendException}, whose cause is Spring Data Redis's translated {@link
     * org.springframework.dao.DataAccessException} or the decoding failure.
     */
    public <T> ScriptCall<T> run(
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
    public <T> ScriptCall<T> runAcknowledged(
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

    private <T> ScriptCall<T> start(String key, String operation, Mono<Object> answer, Function<Object, T> decode) {
        ScriptCall<T> call = new ScriptCall<>(key, operation, commandTimeoutNanos);
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
                    call.sending();
                    send(call, onceConnected);
                } catch (RuntimeException e) {
                    call.fail(e);
                } finally {
                    queuedScripts.decrementAndGet();
                }
            });
        } else {
            // Taken before the script can reach Redis.
            call.sending();
            send(call, execution);
        }
        return call;
    }

    /** Subscribes to a script's execution, which sends it to Redis on the calling thread once connected. */
    private <T> void send(ScriptCall<T> call, Mono<T> execution) {
        execution.subscribe(
                value -> {
                    connected = true;
                    call.answered(value);
                },
                call::fail,
                () -> call.fail(new IllegalStateException("the script answered nothing")));
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
    public void inBackground(Runnable task) {
        connector.execute(task);
    }
}
