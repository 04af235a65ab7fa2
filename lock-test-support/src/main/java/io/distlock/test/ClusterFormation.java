package io.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The steps that turn started nodes into a cluster; kept together since their order matters. */
final class ClusterFormation {

    private ClusterFormation() {}

    static void form(TestRedisCluster cluster, int masters, Duration timeout) {
        List<TestRedis> nodes = cluster.nodes();
        TestRedis first = nodes.get(0);
        for (TestRedis node : nodes.subList(1, nodes.size())) {
            TestRedisCluster.ask(first, "CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
        }
        for (int m = 0; m < masters; m++) {
            int from = TestRedisCluster.SLOTS * m / masters;
            int to = TestRedisCluster.SLOTS * (m + 1) / masters;
            // ADDSLOTSRANGE is Redis 7 only; the embedded binary is 6.2.
            List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = from; slot < to; slot++) {
                command.add(Integer.toString(slot));
            }
            TestRedisCluster.ask(nodes.get(m), command.toArray(String[]::new));
        }
        cluster.awaitUntil(
                timeout,
                "every node to know every other",
                () -> nodes.stream().allMatch(node -> cluster.viewOf(node).knowsAll(nodes.size())));
        for (int r = masters; r < nodes.size(); r++) {
            TestRedis master = nodes.get((r - masters) % masters);
            TestRedisCluster.ask(nodes.get(r), "CLUSTER", "REPLICATE", cluster.nodeId(master));
        }
        cluster.awaitUntil(
                timeout,
                "replicas to be in sync",
                () -> nodes.subList(masters, nodes.size()).stream()
                        .allMatch(replica -> TestRedisCluster.ask(replica, "INFO", "replication")
                                .contains("master_link_status:up")));
        cluster.awaitHealthy(timeout);
    }
}
