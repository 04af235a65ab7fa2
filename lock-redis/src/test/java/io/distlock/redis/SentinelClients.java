package io.distlock.redis;

import io.distlock.test.redis.TestRedisSentinel;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Independent clients of a Sentinel deployment, each with its own Lettuce client and connections, all closed together.
 * They find the primary through the Sentinels, and again on every reconnect, which is how they follow a failover.
 */
final class SentinelClients implements AutoCloseable {

    static final Duration COMMAND_TIMEOUT = RedisClients.COMMAND_TIMEOUT;

    private final TestRedisSentinel sentinel;
    private final Delay reconnectDelay;
    private final ReadFrom readFrom;
    private final List<AutoCloseable> opened = new ArrayList<>();

    /**
     * Clients as Spring Data Redis makes them by default: each connection goes to the primary the Sentinels name when
     * it connects, and asks them again only when it reconnects.
     *
     * @param reconnectDelay Lettuce's delay between reconnect attempts; its default doubles up to 30 s, so a client
     *     that lost its primary may come back seconds after the promotion
     */
    SentinelClients(TestRedisSentinel sentinel, Delay reconnectDelay) {
        this(sentinel, reconnectDelay, null);
    }

    /**
     * Clients with a {@link ReadFrom} setting, on which Spring Data Redis opens Lettuce's master/replica connections
     * instead (not for pub/sub): these also listen to the Sentinels' announcements and switch to a promoted replica
     * while the old primary still holds the connection open.
     */
    SentinelClients(TestRedisSentinel sentinel, Delay reconnectDelay, ReadFrom readFrom) {
        this.sentinel = sentinel;
        this.reconnectDelay = reconnectDelay;
        this.readFrom = readFrom;
    }

    /** A connection factory with its own Lettuce client, like another process would have. */
    synchronized LettuceConnectionFactory connectionFactory() {
        ClientResources resources =
                ClientResources.builder().reconnectDelay(reconnectDelay).build();
        opened.add(() -> resources.shutdown().get());
        LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
                .commandTimeout(COMMAND_TIMEOUT)
                .clientResources(resources);
        if (readFrom != null) {
            client.readFrom(readFrom);
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisSentinelConfiguration(sentinel.masterName(), Set.copyOf(sentinel.sentinelNodes())),
                client.build());
        factory.afterPropertiesSet();
        factory.start();
        opened.add(factory::destroy);
        return factory;
    }

    /**
     * A lock on its own connection factory, with settings changed by {@code settings}. Unless they say otherwise, it
     * closes at once, without waiting for locks a test left held.
     */
    synchronized RedisLock lock(UnaryOperator<RedisLockBuilder> settings) {
        RedisLock lock = settings.apply(RedisLock.builder(connectionFactory()).shutdownGracePeriod(Duration.ZERO))
                .build();
        opened.add(lock);
        return lock;
    }

    @Override
    public synchronized void close() throws Exception {
        // Locks first, then the factories they use, then the client resources under those.
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
    }
}
