package io.distlock.redis;

import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Independent Redis clients for tests, each with its own connections, all closed together. */
final class RedisClients implements AutoCloseable {

    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

    /**
     * How often cluster clients re-read the topology even when nothing hinted at a change, as the README recommends
     * setting with {@code spring.data.redis.lettuce.cluster.refresh.period}.
     */
    static final Duration CLUSTER_REFRESH_PERIOD = Duration.ofSeconds(5);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final String host;
    private final int port;
    private final String password;
    private final List<String> clusterNodes;

    RedisClients(TestRedis redis) {
        this(redis.host(), redis.port(), redis.password());
    }

    /** Clients of a server reached through another address, such as a fault-injecting proxy. */
    RedisClients(String host, int port, String password) {
        this.host = host;
        this.port = port;
        this.password = password;
        this.clusterNodes = List.of();
    }

    /**
     * Clients of a Redis Cluster that follow its topology changes: on MOVED, ASK and reconnects, which Lettuce 7 does by
     * default, and every {@link #CLUSTER_REFRESH_PERIOD}.
     */
    RedisClients(TestRedisCluster cluster) {
        this.host = null;
        this.port = 0;
        this.password = null;
        this.clusterNodes = cluster.nodeAddresses();
    }

    /** A connection factory with its own connections, like another process would have. */
    synchronized LettuceConnectionFactory connectionFactory() {
        LettuceConnectionFactory factory;
        if (clusterNodes.isEmpty()) {
            RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(host, port);
            if (password != null) {
                server.setPassword(password);
            }
            factory = new LettuceConnectionFactory(
                    server,
                    LettuceClientConfiguration.builder()
                            .commandTimeout(COMMAND_TIMEOUT)
                            .build());
        } else {
            factory = new LettuceConnectionFactory(
                    new RedisClusterConfiguration(clusterNodes),
                    LettuceClientConfiguration.builder()
                            .commandTimeout(COMMAND_TIMEOUT)
                            .clientOptions(ClusterClientOptions.builder()
                                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                                            .enablePeriodicRefresh(CLUSTER_REFRESH_PERIOD)
                                            .build())
                                    .build())
                            .build());
        }
        factory.afterPropertiesSet();
        factory.start();
        opened.add(factory::destroy);
        return factory;
    }

    /**
     * A connection factory with its own connections, for a node of a Redlock: like the auto-configuration's, it fails
     * commands at once while the node is down, so that the other nodes decide without it.
     */
    synchronized LettuceConnectionFactory redlockNodeConnectionFactory() {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(host, port);
        if (password != null) {
            server.setPassword(password);
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                server,
                LettuceClientConfiguration.builder()
                        .commandTimeout(COMMAND_TIMEOUT)
                        .clientOptions(ClientOptions.builder()
                                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                                .build())
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        opened.add(factory::destroy);
        return factory;
    }

    /**
     * A connection factory with a pool of connections (Spring Data Redis's {@code shareNativeConnection=false}), on
     * which getting a connection means borrowing one and may block.
     */
    synchronized LettuceConnectionFactory pooledConnectionFactory(int maxConnections, Duration commandTimeout) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(host, port);
        if (password != null) {
            server.setPassword(password);
        }
        GenericObjectPoolConfig<StatefulConnection<?, ?>> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(maxConnections);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                server,
                LettucePoolingClientConfiguration.builder()
                        .poolConfig(pool)
                        .commandTimeout(commandTimeout)
                        .build());
        factory.setShareNativeConnection(false);
        factory.afterPropertiesSet();
        factory.start();
        opened.add(factory::destroy);
        return factory;
    }

    /** A lock with default settings on its own connection factory. */
    RedisLock lock() {
        return lock(builder -> builder);
    }

    /**
     * A lock on its own connection factory, with settings changed by {@code settings}. Unless they say otherwise, it
     * closes at once, without waiting for locks a test left held.
     */
    synchronized RedisLock lock(UnaryOperator<RedisLockBuilder> settings) {
        RedisLock lock = settings.apply(RedisLock.builder(connectionFactory()).shutdownGracePeriod(Duration.ZERO))
                .build();
        opened.add(opened.size(), lock);
        return lock;
    }

    /** A plain string template on its own connection factory. */
    StringRedisTemplate template() {
        StringRedisTemplate template = new StringRedisTemplate(connectionFactory());
        template.afterPropertiesSet();
        return template;
    }

    @Override
    public synchronized void close() throws Exception {
        // Locks first, then the factories they use.
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
    }
}
