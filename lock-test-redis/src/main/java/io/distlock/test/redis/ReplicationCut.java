package io.distlock.test.redis;

import java.time.Duration;

/**
 * A replica cut off from its master's writes while both stay up and the cluster sees nothing wrong, as {@link
 * TestRedisCluster#cutReplication} makes it: the replica is told a password its master does not have, then its
 * replication link is dropped, so it cannot authenticate to sync again until the password is taken back.
 */
final class ReplicationCut {

    /** A master without a password refuses a replica that authenticates with one, so the replica cannot resync. */
    private static final String CUT_OFF_PASSWORD = "cut-off-from-its-master";

    private static final Duration LINK_DOWN_TIMEOUT = Duration.ofSeconds(5);

    private ReplicationCut() {}

    static void cut(ClusterNodes nodes, TestRedis replica) {
        TestRedis master = nodes.masterOf(replica);
        ClusterNodes.ask(replica, "CONFIG", "SET", "masterauth", CUT_OFF_PASSWORD);
        ClusterNodes.ask(master, "CLIENT", "KILL", "TYPE", "replica");
        nodes.awaitUntil(
                LINK_DOWN_TIMEOUT,
                "the replication link of " + replica + " to go down",
                () -> ClusterNodes.ask(replica, "INFO", "replication").contains("master_link_status:down"));
    }

    static void restore(TestRedis node) {
        ClusterNodes.ask(node, "CONFIG", "SET", "masterauth", "");
    }
}
