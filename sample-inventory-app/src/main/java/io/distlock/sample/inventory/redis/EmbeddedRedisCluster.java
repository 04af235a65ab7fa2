package io.distlock.sample.inventory.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A Redis Cluster of a few masters without replicas, each an {@link EmbeddedRedis} node from the binary bundled in the
 * {@code embedded-redis} jar, formed with {@code CLUSTER MEET} and {@code CLUSTER ADDSLOTS}: no {@code redis-cli}, no
 * Docker. It lets the demo show the lock on a cluster on a machine that has only a JDK; it keeps nothing.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    /** The hash slots every Redis Cluster divides among its masters. */
    private static final int SLOTS = 16_384;

    private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    private static final Duration CLIENT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private final List<EmbeddedRedis> nodes;

    private EmbeddedRedisCluster(List<EmbeddedRedis> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Starts the masters, shares the slots out evenly and returns once every node reports the cluster healthy.
     *
     * @param masters how many masters, at least 1
     * @return the running cluster; close it to stop every node
     * @throws IllegalArgumentException if {@code masters} is less than 1
     * @throws IllegalStateException if a node does not start or the cluster does not form in time
     */
    public static EmbeddedRedisCluster start(int masters) {
        if (masters < 1) {
            throw new IllegalArgumentException(
                    "A Redis Cluster needs at least 1 master, but " + masters + " were asked");
        }
        List<EmbeddedRedis> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < masters; i++) {
                nodes.add(EmbeddedRedis.startClusterNode());
            }
            form(nodes);
            return new EmbeddedRedisCluster(nodes);
        } catch (RuntimeException e) {
            nodes.forEach(EmbeddedRedis::close);
            throw e;
        }
    }

    /**
     * Returns every node's address, as Spring Boot's {@code spring.data.redis.cluster.nodes} takes them.
     *
     * @return {@code host:port} per node
     */
    public List<String> nodeAddresses() {
        return nodes.stream().map(node -> node.host() + ":" + node.port()).toList();
    }

    /** Stops every node and deletes their directories; calling it again does nothing. */
    @Override
    public void close() {
        nodes.forEach(EmbeddedRedis::close);
    }

    private static void form(List<EmbeddedRedis> nodes) {
        RedisClient client = RedisClient.create();
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        try {
            for (EmbeddedRedis node : nodes) {
                connections.add(client.connect(RedisURI.create(node.host(), node.port())));
            }
            RedisCommands<String, String> first = connections.get(0).sync();
            for (EmbeddedRedis node : nodes.subList(1, nodes.size())) {
                first.clusterMeet(node.host(), node.port());
            }
            for (int m = 0; m < nodes.size(); m++) {
                // ADDSLOTSRANGE would be shorter, but it is Redis 7 only and the bundled binary is 6.2.
                int[] slots = IntStream.range(SLOTS * m / nodes.size(), SLOTS * (m + 1) / nodes.size())
                        .toArray();
                connections.get(m).sync().clusterAddSlots(slots);
            }
            awaitHealthy(connections, nodes.size());
        } finally {
            connections.forEach(StatefulRedisConnection::close);
            client.shutdown(Duration.ZERO, CLIENT_SHUTDOWN_TIMEOUT);
        }
    }

    /** Every node knows every other and sees every slot served: clients then find the same cluster from any node. */
    private static void awaitHealthy(List<StatefulRedisConnection<String, String>> connections, int nodeCount) {
        long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
        while (!connections.stream().allMatch(connection -> isHealthy(connection.sync(), nodeCount))) {
            if (System.nanoTime() - deadline > 0) {
                List<String> states = connections.stream()
                        .map(connection -> connection.sync().clusterInfo())
                        .toList();
                throw new IllegalStateException("The embedded Redis Cluster did not form within " + FORMATION_TIMEOUT
                        + "; the nodes' CLUSTER INFO: " + states);
            }
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while the embedded Redis Cluster was forming", e);
            }
        }
    }

    private static boolean isHealthy(RedisCommands<String, String> node, int nodeCount) {
        List<String> fields = node.clusterInfo().lines().map(String::strip).toList();
        return fields.contains("cluster_state:ok")
                && fields.contains("cluster_slots_ok:" + SLOTS)
                && fields.contains("cluster_known_nodes:" + nodeCount);
    }
}
