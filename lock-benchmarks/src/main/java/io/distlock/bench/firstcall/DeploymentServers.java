package io.distlock.bench.firstcall;

import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
import io.distlock.test.redis.TestRedisSentinel;
import java.util.List;

/**
 * The servers of one deployment, started for the measurement, and the Spring Boot properties that point an
 * application at them.
 */
final class DeploymentServers implements AutoCloseable {

    private final Runnable stop;
    private final List<String> properties;

    private DeploymentServers(Runnable stop, List<String> properties) {
        this.stop = stop;
        this.properties = properties;
    }

    static DeploymentServers start(Deployment deployment) {
        return switch (deployment) {
            case STANDALONE -> {
                TestRedis redis = TestRedis.start();
                yield new DeploymentServers(
                        redis::close,
                        List.of(
                                "--spring.data.redis.host=" + redis.host(),
                                "--spring.data.redis.port=" + redis.port()));
            }
            case CLUSTER -> {
                TestRedisCluster cluster = TestRedisCluster.start();
                yield new DeploymentServers(
                        cluster::close,
                        List.of("--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodeAddresses())));
            }
            case SENTINEL -> {
                TestRedisSentinel sentinel = TestRedisSentinel.start();
                yield new DeploymentServers(
                        sentinel::close,
                        List.of(
                                "--spring.data.redis.sentinel.master=" + sentinel.masterName(),
                                "--spring.data.redis.sentinel.nodes=" + String.join(",", sentinel.sentinelNodes())));
            }
        };
    }

    /** The command-line properties that point an application at these servers. */
    List<String> properties() {
        return properties;
    }

    @Override
    public void close() {
        stop.run();
    }
}
