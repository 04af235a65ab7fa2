package io.distlock.bench.redis;

import io.distlock.bench.contender.RedisEndpoint;
import io.distlock.bench.contender.RedisNodes;
import io.distlock.bench.contender.Topology;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The Redis every contender runs against: a throwaway server or Redis Cluster of the run's own, or a server given by
 * URI.
 */
public final class RedisTarget implements AutoCloseable {

    /** Enough masters that keys spread over several servers, as on any real cluster. */
    static final int CLUSTER_MASTERS = 3;

    /**
     * Redis's own default. The test clusters' 1 s would let a node that a loaded 2-core machine starves of CPU for a
     * second be counted failed, and with no replica to take over, its slots would stop answering mid-run.
     */
    private static final Duration CLUSTER_NODE_TIMEOUT = Duration.ofSeconds(15);

    private final RedisNodes nodes;
    private final String provider;
    private final @Nullable Runnable stop;

    private RedisTarget(RedisNodes nodes, String provider, @Nullable Runnable stop) {
        this.nodes = nodes;
        this.provider = provider;
        this.stop = stop;
    }

    /**
     * Uses the Redis at {@code uri}, or starts a throwaway one (never on port 6379) when it is null.
     *
     * @param uri a {@code redis://[:password@]host:port} URI, or null
     * @return the target; close it to stop a server it started
     */
    public static RedisTarget open(@Nullable String uri) {
        return open(uri, Topology.STANDALONE);
    }

    /**
     * Uses the Redis at {@code uri}, or starts a throwaway server or cluster of {@value #CLUSTER_MASTERS} masters.
     *
     * @param uri a {@code redis://[:password@]host:port} URI of a standalone server, or null
     * @param topology what to start when {@code uri} is null
     * @return the target; close it to stop what it started
     * @throws IllegalArgumentException if a URI is given with {@link Topology#CLUSTER}
     */
    public static RedisTarget open(@Nullable String uri, Topology topology) {
        if (uri != null) {
            if (topology == Topology.CLUSTER) {
                throw new IllegalArgumentException("bench.redis names one standalone server, so it cannot be used with"
                        + " bench.target=cluster, which starts a throwaway cluster of its own; drop one of the two");
            }
            RedisEndpoint endpoint = RedisEndpoint.parse(uri);
            return new RedisTarget(RedisNodes.standalone(endpoint), "external, " + endpoint.address(), null);
        }
        return topology == Topology.CLUSTER ? startCluster() : startServer();
    }

    /**
     * Where the servers listen and how clients connect to them.
     *
     * @return the nodes
     */
    public RedisNodes nodes() {
        return nodes;
    }

    /**
     * Where the servers came from, for the results.
     *
     * @return a description without password
     */
    public String provider() {
        return provider;
    }

    @Override
    public void close() {
        if (stop != null) {
            stop.run();
        }
    }

    private static RedisTarget startServer() {
        TestRedis server = TestRedis.start();
        RedisEndpoint endpoint = new RedisEndpoint(server.host(), server.port(), server.password());
        return new RedisTarget(
                RedisNodes.standalone(endpoint),
                server.description() + " (throwaway, via lock-test-redis, " + server.provider() + ")",
                server::close);
    }

    /**
     * Masters only, like the standalone target: a replica would cost its master CPU that a small machine's contenders
     * need, and a lock measured here does not depend on replicas.
     */
    private static RedisTarget startCluster() {
        TestRedisCluster cluster = TestRedisCluster.builder()
                .masters(CLUSTER_MASTERS)
                .replicasPerMaster(0)
                .nodeTimeout(CLUSTER_NODE_TIMEOUT)
                .start();
        List<RedisEndpoint> endpoints = cluster.nodes().stream()
                .map(node -> new RedisEndpoint(node.host(), node.port(), node.password()))
                .toList();
        return new RedisTarget(
                RedisNodes.cluster(endpoints),
                "Redis Cluster of " + CLUSTER_MASTERS + " masters without replicas, "
                        + String.join(", ", cluster.nodeAddresses()) + " (throwaway, via lock-test-redis, "
                        + cluster.provider() + ")",
                cluster::close);
    }
}
