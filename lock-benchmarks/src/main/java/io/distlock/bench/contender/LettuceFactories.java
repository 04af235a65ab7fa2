package io.distlock.bench.contender;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Creates the Lettuce connection factories of every contender that runs on Spring Data Redis, all configured alike: the
 * defaults an application gets (one shared native connection), with a command timeout. On a cluster they are what
 * Spring Boot builds from {@code spring.data.redis.cluster.nodes} with {@code
 * spring.data.redis.lettuce.cluster.refresh.period=5s}.
 */
public final class LettuceFactories {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

    /**
     * How often cluster clients re-read the topology even when nothing hinted at a change; Lettuce 7 also refreshes on
     * MOVED, ASK and reconnects by default.
     */
    private static final Duration CLUSTER_REFRESH_PERIOD = Duration.ofSeconds(5);

    /** How long {@link #destroy} waits for a factory's client to shut down. */
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(10);

    private LettuceFactories() {}

    /**
     * Destroys a factory, waiting for its client's shutdown at most 10 s. Lettuce's cluster client can wait for its own
     * shutdown forever (lettuce issue 2278), which must not hold up a run or the build that tests the harness; a
     * client still shutting down then is left to a daemon thread, and a line on standard error says so.
     *
     * @param factory a started factory
     */
    public static void destroy(LettuceConnectionFactory factory) {
        Thread shutdown = new Thread(factory::destroy, "lettuce-factory-shutdown");
        shutdown.setDaemon(true);
        shutdown.start();
        try {
            shutdown.join(SHUTDOWN_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (shutdown.isAlive()) {
            System.err.println(
                    "A Lettuce client did not shut down within " + SHUTDOWN_WAIT + "; left to a daemon thread");
        }
    }

    /**
     * Creates and starts a factory with connections of its own.
     *
     * @param redis the Redis to connect to, standalone or cluster
     * @return the started factory; {@link LettuceConnectionFactory#destroy()} it when done
     * @throws IllegalArgumentException for independent masters, which need a factory each
     */
    public static LettuceConnectionFactory start(RedisNodes redis) {
        if (redis.topology() == Topology.INDEPENDENT) {
            throw new IllegalArgumentException("independent masters need a connection factory each");
        }
        LettuceClientConfiguration.LettuceClientConfigurationBuilder client =
                LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT);
        if (redis.isCluster()) {
            client.clientOptions(ClusterClientOptions.builder()
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enablePeriodicRefresh(CLUSTER_REFRESH_PERIOD)
                            .build())
                    .build());
        }
        RedisConfiguration configuration = configuration(redis);
        // A standalone server goes through the constructor Spring Boot calls: only that one sets what
        // getStandaloneConfiguration() returns, which Redlock reads to check that its nodes are different servers.
        LettuceConnectionFactory factory = configuration instanceof RedisStandaloneConfiguration server
                ? new LettuceConnectionFactory(server, client.build())
                : new LettuceConnectionFactory(configuration, client.build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private static RedisConfiguration configuration(RedisNodes redis) {
        if (redis.isCluster()) {
            RedisClusterConfiguration cluster = new RedisClusterConfiguration(redis.nodes().stream()
                    .map(node -> node.host() + ":" + node.port())
                    .toList());
            if (redis.password() != null) {
                cluster.setPassword(redis.password());
            }
            return cluster;
        }
        RedisEndpoint endpoint = redis.nodes().get(0);
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(endpoint.host(), endpoint.port());
        if (endpoint.password() != null) {
            server.setPassword(endpoint.password());
        }
        return server;
    }
}
