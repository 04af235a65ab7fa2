package io.distlock.redis.internal.pubsub;

import io.distlock.monitor.BackendState;
import io.lettuce.core.cluster.RedisClusterClient;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The connection behind a {@link io.distlock.redis.ReleaseSubscription}: the one pub/sub subscription of an application
 * over which lock releases are announced. Every lock of the application registers its release channel here, so no lock,
 * waiter or key ever opens a subscription of its own.
 *
 * <p>The client resubscribes by itself after a reconnect; since releases announced meanwhile were missed, every
 * registered listener is then told, so that its lock wakes its waiters to check Redis again.
 *
 * <p>Subscribing happens on a distlock thread, since it may block on the network; a lock asks for it with {@link
 * #ensureSubscribed} as often as it likes, and never waits. Until the subscription works, waiters rely on the holder's
 * lease; after a failure the next attempt is made no sooner than a second later.
 *
 * <p>On a Redis Cluster reached through Lettuce, it also subscribes with sharded pub/sub (Redis 7): one release
 * channel per cluster slot, on the master that serves the slot. Locks announce that way once a sharded subscription
 * worked; until then, and on Redis 6.2, they announce on the classic channel, which it keeps listening on.
 *
 * <p>Messages are handled on the client's I/O thread; handlers only wake waiting threads.
 */
public final class ReleaseConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseConnection.class);

    /** After a failed subscription, waiters rely on lease expiry alone for this long before it is tried again. */
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long closing a lock's registration waits for a subscription in progress. */
    private static final long SHUTDOWN_WAIT_MILLIS = 2000;

    private final RedisConnectionFactory connectionFactory;
    private final Map<String, Set<ReleaseListener>> listeners = new ConcurrentHashMap<>();
    /** Channels the current connection is subscribed to. */
    private final Set<String> subscribed = ConcurrentHashMap.newKeySet();

    /** Notified whenever a channel was subscribed, for {@link #awaitSubscribed}. */
    private final Object subscribedSignal = new Object();

    private final Dispatcher dispatcher = new Dispatcher();
    private final Object lock = new Object();

    private volatile long nextAttemptNanos = System.nanoTime();
    /** The thread subscribing now, if any; guarded by {@link #lock}. */
    private @Nullable Thread subscriber;
    /** Only the subscriber thread changes it. */
    private volatile @Nullable RedisConnection connection;

    private volatile boolean closed;

    /** The factory of a Redis Cluster to subscribe sharded on, or null where releases are announced classic only. */
    private final @Nullable LettuceConnectionFactory shardedCluster;
    /** The sharded half, made on first use, once the factory has its client; guarded by {@link #lock}. */
    private volatile @Nullable ShardedSubscriptions sharded;

    /**
     * @param shardedOnCluster whether, on a Redis Cluster of Redis 7 or later reached through a {@link
     *     LettuceConnectionFactory}, releases are announced and heard with sharded pub/sub
     */
    public ReleaseConnection(RedisConnectionFactory connectionFactory, boolean shardedOnCluster) {
        this.connectionFactory = connectionFactory;
        this.shardedCluster = shardedOnCluster
                        && connectionFactory instanceof LettuceConnectionFactory lettuce
                        && lettuce.isClusterAware()
                ? lettuce
                : null;
    }

    /**
     * Makes sure the listener hears every release announced on the channel: registers it, and starts subscribing in
     * the background unless the channel is subscribed, a subscription is under way, or one failed less than a second
     * ago. Calling it again changes nothing once it worked: the listener still hears each release once. Never blocks.
     */
    public void ensureSubscribed(String channel, ReleaseListener listener) {
        Set<ReleaseListener> registered = listeners.computeIfAbsent(channel, any -> new CopyOnWriteArraySet<>());
        registered.add(listener);
        if (subscribed.contains(channel) || closed || System.nanoTime() - nextAttemptNanos < 0) {
            return;
        }
        synchronized (lock) {
            if (subscriber == null) {
                startSubscriber();
            }
        }
    }

    /** Under {@link #lock}, with no subscriber running: starts one, unless closed or backing off after a failure. */
    private void startSubscriber() {
        if (closed || System.nanoTime() - nextAttemptNanos < 0) {
            return;
        }
        Thread started = new Thread(this::subscribeAll, "distlock-subscriber");
        started.setDaemon(true);
        subscriber = started;
        started.start();
    }

    /** Whether this subscription listens on sharded release channels as well as on the classic ones. */
    public boolean shards() {
        return shardedCluster != null;
    }

    /** Whether locks announce releases with sharded pub/sub now: a sharded subscription worked. */
    public boolean announcesSharded() {
        ShardedSubscriptions current = shardedSubscriptions();
        return current != null && current.works();
    }

    /**
     * Like {@link #ensureSubscribed}, for a sharded release channel; does nothing where this subscription does not
     * {@linkplain #shards() shard}.
     */
    public void ensureShardSubscribed(String channel, ReleaseListener listener) {
        ShardedSubscriptions current = shardedSubscriptions();
        if (current != null) {
            current.ensureSubscribed(channel, listener);
        }
    }

    /** The sharded half, made on first use; null where this subscription does not shard, or once it closed. */
    private @Nullable ShardedSubscriptions shardedSubscriptions() {
        ShardedSubscriptions current = sharded;
        if (current != null || shardedCluster == null || closed) {
            return current;
        }
        synchronized (lock) {
            if (closed) {
                return null;
            }
            if (sharded == null) {
                sharded = new ShardedSubscriptions(
                        (RedisClusterClient) shardedCluster.getRequiredNativeClient(), shardedCluster.getTimeout());
            }
            return sharded;
        }
    }

    /**
     * Stops the listener hearing the channel. It lets a subscription in progress finish first, briefly, so that it
     * does not connect while the client shuts down.
     */
    public void unsubscribe(String channel, ReleaseListener listener) {
        Thread running;
        synchronized (lock) {
            running = subscriber;
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(SHUTDOWN_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Set<ReleaseListener> registered = listeners.get(channel);
        if (registered != null) {
            registered.remove(listener);
        }
        ShardedSubscriptions current = sharded;
        if (current != null) {
            current.unsubscribe(listener);
        }
    }

    /** How the subscription to the channel stands, for the inspection's health check. */
    public BackendState.Subscription state(String channel) {
        if (closed) {
            return BackendState.Subscription.CLOSED;
        }
        if (!listeners.containsKey(channel)) {
            return BackendState.Subscription.NOT_STARTED;
        }
        RedisConnection current = connection;
        return subscribed.contains(channel) && current != null && !current.isClosed() && current.isSubscribed()
                ? BackendState.Subscription.SUBSCRIBED
                : BackendState.Subscription.RECONNECTING;
    }

    private void subscribeAll() {
        try {
            for (String channel : listeners.keySet()) {
                if (!closed && !subscribed.contains(channel)) {
                    subscribe(channel);
                }
            }
        } catch (RuntimeException e) {
            nextAttemptNanos = System.nanoTime() + RETRY_NANOS;
            log.warn(
                    "Could not subscribe to distlock's release channel; waiters rely on the holder's lease until it "
                            + "works: {}",
                    e.toString());
        } finally {
            synchronized (lock) {
                subscriber = null;
                // A channel asked for while this run was past it found the run under way and left it to this one.
                if (listeners.keySet().stream().anyMatch(channel -> !subscribed.contains(channel))) {
                    startSubscriber();
                }
            }
        }
    }

    private void subscribe(String channel) {
        byte[] channelBytes = channel.getBytes(StandardCharsets.UTF_8);
        RedisConnection current = connection;
        if (current != null && current.isSubscribed()) {
            current.getSubscription().subscribe(channelBytes);
            markSubscribed(channel);
            return;
        }
        if (current != null) {
            subscribed.clear();
            closeQuietly(current);
        }
        RedisConnection opened = connectionFactory.getConnection();
        try {
            opened.subscribe(dispatcher, channelBytes);
        } catch (RuntimeException e) {
            closeQuietly(opened);
            throw e;
        }
        connection = opened;
        markSubscribed(channel);
        if (closed) {
            closeQuietly(opened);
        }
    }

    private void markSubscribed(String channel) {
        subscribed.add(channel);
        synchronized (subscribedSignal) {
            subscribedSignal.notifyAll();
        }
    }

    /**
     * Waits until the channel is subscribed, as a lock's preparation does before the application reports ready.
     *
     * @return whether it was subscribed within the time; false as well once closed
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    public boolean awaitSubscribed(String channel, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        synchronized (subscribedSignal) {
            while (!subscribed.contains(channel)) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(subscribedSignal, left);
            }
        }
        return true;
    }

    /** Unsubscribes and closes the subscription's connection; never waits for a subscription in progress. */
    @Override
    public void close() {
        closed = true;
        synchronized (subscribedSignal) {
            subscribedSignal.notifyAll();
        }
        listeners.clear();
        ShardedSubscriptions shardedNow;
        synchronized (lock) {
            shardedNow = sharded;
        }
        if (shardedNow != null) {
            shardedNow.close();
        }
        RedisConnection current = connection;
        if (current != null) {
            closeQuietly(current);
        }
    }

    public boolean isRunning() {
        return !closed;
    }

    private static void closeQuietly(RedisConnection connection) {
        try {
            connection.close();
        } catch (RuntimeException e) {
            log.debug("Closing the release subscription failed", e);
        }
    }

    private void forEachListener(byte[] channel, Consumer<ReleaseListener> action) {
        Set<ReleaseListener> registered = listeners.get(new String(channel, StandardCharsets.UTF_8));
        if (registered != null) {
            registered.forEach(action);
        }
    }

    private final class Dispatcher implements MessageListener, SubscriptionListener {

        @Override
        public void onMessage(Message message, byte @Nullable [] pattern) {
            String body = new String(message.getBody(), StandardCharsets.UTF_8);
            forEachListener(message.getChannel(), listener -> listener.released(body));
        }

        @Override
        public void onChannelSubscribed(byte[] channel, long count) {
            forEachListener(channel, ReleaseListener::subscribed);
        }
    }
}
