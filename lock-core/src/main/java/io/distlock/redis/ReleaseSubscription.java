package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * The one pub/sub subscription of an application over which lock releases are announced. Every {@link RedisLock} of
 * the application registers its release channel here, so no lock, waiter or key ever opens a subscription of its own.
 *
 * <p>The client resubscribes by itself after a reconnect; since releases announced meanwhile were missed, every
 * registered lock is then told to wake its waiters so that they check Redis again.
 *
 * <p>As a Spring bean it closes in the lifecycle phase {@link RedisLock#LIFECYCLE_PHASE}: after the web server has
 * stopped taking requests, before the connection factory stops.
 *
 * <p>Messages are handled on the client's I/O thread; handlers only wake waiting threads. Subscribing may block on the
 * network, but never while {@link #close()} or a lock's own calls wait for it.
 */
public final class ReleaseSubscription implements ClosedOnStop {

    private static final Logger log = LoggerFactory.getLogger(ReleaseSubscription.class);

    private final RedisConnectionFactory connectionFactory;
    private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();
    private final Dispatcher dispatcher = new Dispatcher();
    /** Serialises subscribing; only subscribing threads ever wait for it. */
    private final ReentrantLock subscribing = new ReentrantLock();

    private volatile @Nullable RedisConnection connection;
    private volatile boolean closed;

    /**
     * Creates the subscription; it connects when the first channel is registered.
     *
     * @param connectionFactory the application's Redis connection factory
     */
    public ReleaseSubscription(RedisConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    /** Receives the releases announced on one channel. */
    interface Listener {

        /** A lock was released; the message is the releasing lock instance's id followed by the lock's Redis key. */
        void released(String message);

        /** The subscription was (re)established; announcements may have been missed before. */
        void subscribed();
    }

    /**
     * Adds a listener and subscribes to its channel if nobody has yet; blocks on Redis while subscribing. Registering
     * a listener again, as a retry after a failure does, changes nothing: it still hears each release once.
     *
     * @throws IllegalStateException if the subscription is closed
     * @throws RuntimeException the client's failure to subscribe; the listener stays registered for the next attempt
     */
    void register(String channel, Listener listener) {
        if (closed) {
            throw new IllegalStateException("the release subscription is closed");
        }
        listeners.computeIfAbsent(channel, any -> new CopyOnWriteArraySet<>()).add(listener);
        subscribing.lock();
        try {
            subscribe(channel);
        } finally {
            subscribing.unlock();
        }
    }

    void unregister(String channel, Listener listener) {
        Set<Listener> registered = listeners.get(channel);
        if (registered != null) {
            registered.remove(listener);
        }
    }

    private void subscribe(String channel) {
        byte[] channelBytes = channel.getBytes(StandardCharsets.UTF_8);
        RedisConnection current = connection;
        if (current != null && current.isSubscribed()) {
            if (!isSubscribedTo(current, channelBytes)) {
                current.getSubscription().subscribe(channelBytes);
            }
            return;
        }
        if (current != null) {
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
        if (closed) {
            closeQuietly(opened);
        }
    }

    private static boolean isSubscribedTo(RedisConnection connection, byte[] channel) {
        var subscription = connection.getSubscription();
        return subscription != null
                && subscription.getChannels().stream().anyMatch(subscribed -> Arrays.equals(subscribed, channel));
    }

    /** Unsubscribes and closes the subscription's connection; never waits for a subscription in progress. */
    @Override
    public void close() {
        closed = true;
        listeners.clear();
        RedisConnection current = connection;
        if (current != null) {
            closeQuietly(current);
        }
    }

    @Override
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

    private void forEachListener(byte[] channel, Consumer<Listener> action) {
        Set<Listener> registered = listeners.get(new String(channel, StandardCharsets.UTF_8));
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
            forEachListener(channel, Listener::subscribed);
        }
    }
}
