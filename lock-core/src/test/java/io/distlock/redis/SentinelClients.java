package io.distlock.redis;

import io.distlock.test.TestRedisSentinel;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Independent clients of a Sentinel deployment, each with its own Lettuce client and connections, all closed together.
 * They find the primary through the Sentinels, and again on every reconnect, which is how they follow a failover.
 */
final class SentinelClients implements AutoCloseable {

    static final Duration COMMAND_TIMEOUT = RedisClients.COMMAND_TIMEOUT;

    private final TestRedisSentinel sentinel;
    private final Delay reconnectDelay;
    private final List<AutoCloseable> opened = new ArrayList<>();

    /**
     * @param reconnectDelay Lettuce's delay between reconnect attempts; its default doubles up to 30 s, so a client
     *     that lost its primary may come back seconds after the promotion
     */
    SentinelClients(TestRedisSentinel sentinel, Delay reconnectDelay) {
        this.sentinel = sentinel;
        this.reconnectDelay = reconnectDelay;
    }

    /** A connection factory with its own Lettuce client, like another process would have. */
    synchronized LettuceConnectionFactory connectionFactory() {
        ClientResources resources =
                ClientResources.builder().reconnectDelay(reconnectDelay).build();
        opened.add(() -> resources.shutdown().get());
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisSentinelConfiguration(sentinel.masterName(), Set.copyOf(sentinel.sentinelNodes())),
                LettuceClientConfiguration.builder()
                        .commandTimeout(COMMAND_TIMEOUT)
                        .clientResources(resources)
                        .build());
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
