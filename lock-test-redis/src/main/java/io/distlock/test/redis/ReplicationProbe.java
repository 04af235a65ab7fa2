package io.distlock.test.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a data node of a {@link TestRedisSentinel} says about its replication. A node that is dead or paused says
 * nothing, after a short timeout, so that polling a deployment with a frozen node does not stall.
 */
final class ReplicationProbe {

    private static final Duration TIMEOUT = Duration.ofMillis(500);
    private static final Pattern ONLINE_REPLICA = Pattern.compile("(?m)^slave\\d+:.*state=online");
    private static final Pattern ROLE = Pattern.compile("(?m)^role:(\\w+)");

    private ReplicationProbe() {}

    static boolean isMaster(TestRedis node) {
        return replicationInfo(node)
                .map(ROLE::matcher)
                .filter(role -> role.find() && role.group(1).equals("master"))
                .isPresent();
    }

    /** How many replicas have finished their sync with {@code primary} and now stream its writes. */
    static long onlineReplicas(TestRedis primary) {
        return replicationInfo(primary)
                .map(info -> ONLINE_REPLICA.matcher(info).results().count())
                .orElse(0L);
    }

    /** True when {@code node} does not answer, or replicates from {@code primary} with its link up. */
    static boolean followsOrIsSilent(TestRedis node, TestRedis primary) {
        return replicationInfo(node)
                .map(info -> info.contains("master_port:" + primary.port()) && info.contains("master_link_status:up"))
                .orElse(true);
    }

    private static Optional<String> replicationInfo(TestRedis node) {
        try (RespConnection connection = RespConnection.open(node.host(), node.port(), TIMEOUT)) {
            return Optional.of(connection.call("INFO", "replication"));
        } catch (IOException | IllegalStateException silent) {
            return Optional.empty();
        }
    }
}
