package io.distlock.sample.inventory.demo;

import io.distlock.sample.inventory.redis.EmbeddedRedis;
import io.distlock.sample.inventory.redis.EmbeddedRedisCluster;
import java.util.List;
import java.util.Optional;

/**
 * Which Redis the demo's instances share, as the demo's options choose it: one embedded Redis by default, or with
 * {@value #CLUSTER_OPTION} an embedded Redis Cluster of {@value #CLUSTER_MASTERS} masters.
 */
public enum DemoTarget {
    STANDALONE,
    CLUSTER;

    /** The option that runs the demo on a Redis Cluster. */
    public static final String CLUSTER_OPTION = "--cluster";

    static final int CLUSTER_MASTERS = 3;

    private static final String ALLOWED = CLUSTER_OPTION + " (the instances share an embedded Redis Cluster of "
            + CLUSTER_MASTERS + " masters instead of one embedded Redis)";

    /**
     * How often instances re-read the cluster's topology besides on MOVED and ASK, as distlock's README recommends for
     * applications on a cluster.
     */
    private static final String CLUSTER_REFRESH_PERIOD = "5s";

    /**
     * Reads the demo's options.
     *
     * @param options the command-line arguments after {@code --demo}
     * @return the target they choose
     * @throws IllegalArgumentException naming the first unknown option and the allowed ones
     */
    public static DemoTarget fromOptions(List<String> options) {
        DemoTarget target = STANDALONE;
        for (String option : options) {
            if (!option.equals(CLUSTER_OPTION)) {
                throw new IllegalArgumentException(
                        "Unknown option '" + option + "' for --demo. Allowed: " + ALLOWED + ".");
            }
            target = CLUSTER;
        }
        return target;
    }

    /** What the demo's introduction adds about the shared Redis, beyond that there is one. */
    Optional<String> introduction() {
        return this == CLUSTER
                ? Optional.of("Here that Redis is a Redis Cluster of " + CLUSTER_MASTERS + " masters (" + CLUSTER_OPTION
                        + "): the instances connect in cluster mode.")
                : Optional.empty();
    }

    /** Starts the Redis for the demo; the caller closes it. */
    DemoRedis start() {
        return switch (this) {
            case STANDALONE -> {
                EmbeddedRedis redis = EmbeddedRedis.start();
                yield new DemoRedis(
                        "embedded redis-server started at " + redis.uri(),
                        List.of("--spring.data.redis.url=" + redis.uri()),
                        redis::close);
            }
            case CLUSTER -> {
                EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(CLUSTER_MASTERS);
                yield new DemoRedis(
                        "embedded Redis Cluster of " + CLUSTER_MASTERS + " masters started at "
                                + String.join(", ", cluster.nodeAddresses()),
                        List.of(
                                "--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodeAddresses()),
                                "--spring.data.redis.lettuce.cluster.refresh.period=" + CLUSTER_REFRESH_PERIOD),
                        cluster::close);
            }
        };
    }
}
