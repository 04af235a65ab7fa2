package io.distlock.redis;

import io.distlock.redis.internal.pubsub.ReleaseConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

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
 * <p>Subscribing happens on a distlock thread, since it may block on the network; a lock asks for it as often as it
 * likes, and never waits. Until the subscription works, waiters rely on the holder's lease; after a failure the next
 * attempt is made no sooner than a second later.
 *
 * <p>On a Redis Cluster reached through Lettuce, it also subscribes with sharded pub/sub (Redis 7): one release
 * channel per cluster slot, on the master that serves the slot, so that a release is announced within its shard
 * instead of to every node. Locks announce that way once a sharded subscription worked; until then, and on Redis 6.2,
 * they announce on the classic channel, which it keeps listening on.
 *
 * <p>Messages are handled on the client's I/O thread; handlers only wake waiting threads.
 */
public final class ReleaseSubscription implements ClosingLifecycle {

    private final ReleaseConnection connection;

    /**
     * Creates the subscription, with sharded pub/sub on a Redis Cluster; it connects when a lock first needs it.
     *
     * @param connectionFactory the application's Redis connection factory
     */
    public ReleaseSubscription(RedisConnectionFactory connectionFactory) {
        this(connectionFactory, true);
    }

    /**
     * Creates the subscription; it connects when a lock first needs it.
     *
     * @param connectionFactory the application's Redis connection factory
     * @param shardedOnCluster whether, on a Redis Cluster of Redis 7 or later reached through a {@link
     *     LettuceConnectionFactory}, releases are announced and heard with sharded pub/sub, within the shard of the
     *     lock's key; with false, or elsewhere, with classic pub/sub, which a cluster forwards to every node. Every
     *     instance of an application must use the same setting: an instance that announces only the classic way is
     *     heard by both, but one that announces sharded is heard only by instances that subscribe sharded.
     */
    public ReleaseSubscription(RedisConnectionFactory connectionFactory, boolean shardedOnCluster) {
        this.connection = new ReleaseConnection(connectionFactory, shardedOnCluster);
    }

    /** The connection that locks sharing this subscription register with. */
    ReleaseConnection connection() {
        return connection;
    }

    /** Unsubscribes and closes the subscription's connection; never waits for a subscription in progress. */
    @Override
    public void close() {
        connection.close();
    }

    @Override
    public boolean isRunning() {
        return connection.isRunning();
    }
}
