package io.distlock.test.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps of moving a hash slot, and its keys, from one master to another, as {@code redis-cli --cluster reshard}
 * takes them: mark the slot importing on the target and migrating on the source, {@code MIGRATE} the source's keys in
 * batches, then tell every master who serves the slot. {@link TestRedisCluster.SlotMigration} takes them one by one.
 */
final class SlotMigrationSteps {

    private static final Duration MIGRATE_TIMEOUT = Duration.ofSeconds(5);
    private static final int MIGRATE_BATCH = 100;

    private SlotMigrationSteps() {}

    /**
     * Marks the slot as importing on {@code target} and migrating on {@code source}.
     *
     * @return the target's node id
     */
    static String begin(int slot, TestRedis source, TestRedis target) {
        String sourceId = ClusterNodes.ask(source, "CLUSTER", "MYID");
        String targetId = ClusterNodes.ask(target, "CLUSTER", "MYID");
        ClusterNodes.ask(target, "CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", sourceId);
        ClusterNodes.ask(source, "CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", targetId);
        return targetId;
    }

    /**
     * Moves the keys the source still has in the slot to the target.
     *
     * @return how many keys were moved
     */
    static int migrateKeys(int slot, TestRedis source, TestRedis target) {
        int moved = 0;
        while (true) {
            String keys = ClusterNodes.ask(
                    source, "CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), Integer.toString(MIGRATE_BATCH));
            if (keys == null || keys.isEmpty()) {
                return moved;
            }
            List<String> command = new ArrayList<>(List.of(
                    "MIGRATE",
                    target.host(),
                    Integer.toString(target.port()),
                    "",
                    "0",
                    Long.toString(MIGRATE_TIMEOUT.toMillis()),
                    "KEYS"));
            List<String> batch = List.of(keys.split("\n"));
            command.addAll(batch);
            ClusterNodes.ask(source, command.toArray(String[]::new));
            moved += batch.size();
        }
    }

    /** Tells the target, the source and every other live master that the target serves the slot now. */
    static void complete(ClusterNodes nodes, int slot, TestRedis source, TestRedis target, String targetId) {
        String slotText = Integer.toString(slot);
        ClusterNodes.ask(target, "CLUSTER", "SETSLOT", slotText, "NODE", targetId);
        ClusterNodes.ask(source, "CLUSTER", "SETSLOT", slotText, "NODE", targetId);
        for (TestRedis node : nodes.live()) {
            if (node != source && node != target && nodes.viewOf(node).myself().isMaster()) {
                ClusterNodes.ask(node, "CLUSTER", "SETSLOT", slotText, "NODE", targetId);
            }
        }
    }
}
