package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.test.redis.TestRedis.Provider;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The test cluster against real redis-server processes: formation, failover, slot moves. */
@Timeout(120)
class TestRedisClusterTest {

    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(20);

    private static TestRedisCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = TestRedisCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void formsAHealthyClusterWithEveryProcessProvider(Provider provider) {
        assumeTrue(provider != Provider.PATH || RedisExecutable.onPath().isPresent(), "no redis-server on PATH");
        try (TestRedisCluster own = TestRedisCluster.builder()
                .provider(provider)
                .masters(3)
                .replicasPerMaster(0)
                .start()) {
            assertThat(own.nodes()).hasSize(3);
            assertThat(own.nodes().get(0).command("CLUSTER", "INFO")).contains("cluster_state:ok");
            assertThat(own.masterOfSlot(0)).isSameAs(own.nodes().get(0));
            assertThat(own.masterOfSlot(TestRedisCluster.SLOTS - 1))
                    .isSameAs(own.nodes().get(2));
        }
    }

    @Test
    void everyMasterServesAThirdOfTheSlotsAndHasOneReplica() {
        assertThat(cluster.nodes()).hasSize(6);
        List<TestRedis> masters =
                List.of(cluster.masterOfSlot(0), cluster.masterOfSlot(8000), cluster.masterOfSlot(16383));
        assertThat(masters).doesNotHaveDuplicates();
        for (TestRedis master : masters) {
            assertThat(cluster.replicasOf(master)).hasSize(1);
        }
        assertThat(cluster.nodeAddresses()).allMatch(address -> address.startsWith("127.0.0.1:"));
    }

    @Test
    void keysLiveOnTheMasterOfTheirSlotAndReachItsReplica() {
        String key = "{cluster-test}:" + UUID.randomUUID();
        TestRedis master = cluster.masterOf(key);
        master.command("SET", key, "here");
        TestRedis replica = cluster.replicasOf(master).get(0);
        assertThat(cluster.slotOf(key)).isEqualTo(cluster.slotOf("{cluster-test}"));
        assertThat(master.command("WAIT", "1", "2000")).isEqualTo("1");
        assertThat(replica.command("READONLY")).isEqualTo("OK");
        assertThatThrownBy(() -> otherMaster(master).command("GET", key)).hasMessageContaining("MOVED");
    }

    @Test
    void movedSlotKeepsItsKeysAndTheirTtl() {
        String key = "{moved-" + UUID.randomUUID() + "}";
        TestRedis source = cluster.masterOf(key);
        TestRedis target = otherMaster(source);
        source.command("SET", key, "value", "PX", "60000");

        cluster.moveSlot(cluster.slotOf(key), target);

        assertThat(cluster.awaitHealthy(PROMOTION_TIMEOUT).masterOf(key)).isSameAs(target);
        assertThat(target.command("GET", key)).isEqualTo("value");
        assertThat(Long.parseLong(target.command("PTTL", key))).isBetween(1L, 60000L);
        assertThatThrownBy(() -> source.command("GET", key)).hasMessageContaining("MOVED");
    }

    @Test
    void slotHalfWayMigratedAnswersAskForKeysTheSourceNoLongerHas() {
        String moved = "{half-" + UUID.randomUUID() + "}";
        String created = moved + ":later";
        TestRedis source = cluster.masterOf(moved);
        TestRedis target = otherMaster(source);
        source.command("SET", moved, "1");

        TestRedisCluster.SlotMigration migration = cluster.beginMigration(cluster.slotOf(moved), target);
        assertThat(migration.migrateKeys()).isEqualTo(1);
        assertThatThrownBy(() -> source.command("GET", moved)).hasMessageContaining("ASK");
        assertThatThrownBy(() -> source.command("SET", created, "2")).hasMessageContaining("ASK");
        migration.complete();

        assertThat(cluster.awaitHealthy(PROMOTION_TIMEOUT).masterOf(moved)).isSameAs(target);
        assertThat(target.command("GET", moved)).isEqualTo("1");
    }

    @Test
    void operatorFailoverPromotesTheReplicaWithoutLosingWrites() {
        String key = "{failover-" + UUID.randomUUID() + "}";
        TestRedis master = cluster.masterOf(key);
        master.command("SET", key, "kept");
        TestRedis replica = cluster.replicasOf(master).get(0);

        cluster.failover(replica, PROMOTION_TIMEOUT);

        assertThat(cluster.masterOf(key)).isSameAs(replica);
        assertThat(replica.command("GET", key)).isEqualTo("kept");
        assertThat(cluster.replicasOf(replica)).containsExactly(master);
    }

    @Test
    void killedMasterIsReplacedByItsReplicaAndRejoinsAsReplicaWhenStartedAgain() {
        String key = "{killed-" + UUID.randomUUID() + "}";
        TestRedis master = cluster.masterOf(key);
        TestRedis replica = cluster.replicasOf(master).get(0);

        master.kill();
        assertThat(cluster.awaitHealthy(PROMOTION_TIMEOUT).masterOf(key)).isSameAs(replica);

        master.startAgain();
        cluster.awaitHealthy(PROMOTION_TIMEOUT);
        assertThat(cluster.replicasOf(replica)).containsExactly(master);
    }

    @Test
    void replicaCutOffFromItsMasterLosesTheWritesMadeMeanwhileWhenPromoted() {
        String key = "{cut-" + UUID.randomUUID() + "}";
        TestRedis master = cluster.masterOf(key);
        TestRedis replica = cluster.replicasOf(master).get(0);
        master.command("SET", key, "before");
        assertThat(master.command("WAIT", "1", "2000")).isEqualTo("1");

        cluster.cutReplication(replica);
        master.command("SET", key, "after");
        assertThat(master.command("WAIT", "1", "300")).isEqualTo("0");
        master.kill();

        assertThat(cluster.awaitHealthy(PROMOTION_TIMEOUT).masterOf(key)).isSameAs(replica);
        assertThat(replica.command("GET", key)).isEqualTo("before");
        cluster.restoreReplication(replica);
        master.startAgain();
        cluster.awaitHealthy(PROMOTION_TIMEOUT);
    }

    @Test
    void refusesContainerNodesWithAReason() {
        assertThatThrownBy(() -> TestRedisCluster.builder().provider(Provider.TESTCONTAINERS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PATH or EMBEDDED");
    }

    private static TestRedis otherMaster(TestRedis master) {
        return cluster.nodes().stream()
                .filter(node -> node != master && cluster.replicasOf(node).size() > 0)
                .findFirst()
                .orElseThrow();
    }
}
