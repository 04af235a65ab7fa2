package io.distlock.redis.fuzz;

import static org.awaitility.Awaitility.await;

import io.distlock.tck.fuzz.Disruption;
import io.distlock.tck.fuzz.RunInProgress;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fails a cluster master over part-way through a fuzz run: SIGKILLs the master that serves the run's first key (and so
 * every key of the run in its slots) once a quarter of the run has passed, waits until its replica has been promoted,
 * then until the workers take locks on those keys again: the rest of the run, most of it, is left for recovery, which
 * takes the workers about ten seconds. Optionally it first cuts the replica off from its master's
 * writes ({@link TestRedisCluster#cutReplication}) and lets sections run on those keys, so that some locks and fencing
 * tokens certainly never reach the replica. What happened when is kept as a {@link Timeline}.
 *
 * <p>The cluster is left with the old master dead; the test heals it afterwards.
 */
final class MasterFailover implements Disruption {

    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(30);

    /** Sections taken on the doomed master while cut off from its replica: writes the failover certainly loses. */
    private static final int UNREPLICATED_SECTIONS = 20;

    private static final Duration UNREPLICATED_SECTIONS_TIMEOUT = Duration.ofSeconds(10);

    private static final Duration POLL = Duration.ofMillis(20);

    private final TestRedisCluster cluster;
    private final boolean cutReplicationFirst;
    private Timeline timeline;

    private MasterFailover(TestRedisCluster cluster, boolean cutReplicationFirst) {
        this.cluster = cluster;
        this.cutReplicationFirst = cutReplicationFirst;
    }

    /** Kills the master while replication runs as usual: only what was not yet copied can be lost. */
    static MasterFailover killingTheMaster(TestRedisCluster cluster) {
        return new MasterFailover(cluster, false);
    }

    /** Cuts the replica off, lets sections run on the master alone, then kills it: those sections' writes are lost. */
    static MasterFailover cuttingReplicationThenKillingTheMaster(TestRedisCluster cluster) {
        return new MasterFailover(cluster, true);
    }

    @Override
    public void during(RunInProgress run) {
        TestRedis master = cluster.masterOf(
                RedisFuzzLocks.redisKey(run.lockPrefix(), run.keyNames().get(0)));
        TestRedis replica = cluster.replicasOf(master).get(0);
        List<String> failedKeys = new ArrayList<>();
        for (String key : run.keyNames()) {
            if (cluster.masterOf(RedisFuzzLocks.redisKey(run.lockPrefix(), key)) == master) {
                failedKeys.add(key);
            }
        }
        Duration partWay = run.length().dividedBy(4);
        await("a quarter of the run, with sections on the keys of the master to kill")
                .atMost(run.length())
                .pollInterval(POLL)
                .until(() -> run.sinceStart().compareTo(partWay) >= 0 && run.sectionsOn(failedKeys) > 0);
        long unreplicatedSections = 0;
        if (cutReplicationFirst) {
            cluster.cutReplication(replica);
            long atCut = run.sectionsOn(failedKeys);
            Duration cutAt = run.sinceStart();
            // A lock that waits for its replica's acknowledgement grants nothing now: then the whole time passes.
            await("sections on the master cut off from its replica, or their time")
                    .atMost(UNREPLICATED_SECTIONS_TIMEOUT.plusSeconds(5))
                    .pollInterval(POLL)
                    .until(() -> run.sectionsOn(failedKeys) - atCut >= UNREPLICATED_SECTIONS
                            || run.sinceStart().minus(cutAt).compareTo(UNREPLICATED_SECTIONS_TIMEOUT) >= 0);
            unreplicatedSections = run.sectionsOn(failedKeys) - atCut;
        }
        long violationsBeforeKill = run.violationsSoFar();
        long sectionsBeforeKill = run.sectionsOn(failedKeys);
        Duration killedAt = run.sinceStart();
        master.kill();
        cluster.awaitHealthy(PROMOTION_TIMEOUT);
        Duration promotedAt = run.sinceStart();
        long sectionsAtPromotion = run.sectionsOn(failedKeys);
        // Recovery is what the workers show: sections on the failed-over keys again, if it happens before the run ends.
        await("sections on the failed-over keys again, or the run's end")
                .atMost(run.length())
                .pollInterval(POLL)
                .until(() -> run.sectionsOn(failedKeys) > sectionsAtPromotion
                        || run.sinceStart().compareTo(run.length()) >= 0);
        Optional<Duration> recoveredAt =
                run.sectionsOn(failedKeys) > sectionsAtPromotion ? Optional.of(run.sinceStart()) : Optional.empty();
        timeline = new Timeline(
                master.port(),
                replica.port(),
                failedKeys,
                cutReplicationFirst,
                unreplicatedSections,
                sectionsBeforeKill,
                violationsBeforeKill,
                killedAt,
                promotedAt,
                sectionsAtPromotion,
                recoveredAt);
    }

    /**
     * What happened when, once the run has been disrupted.
     *
     * @throws IllegalStateException if the failover did not happen
     */
    Timeline timeline() {
        if (timeline == null) {
            throw new IllegalStateException("the master was not failed over");
        }
        return timeline;
    }

    /**
     * The course of one failover, times from the workers' start signal.
     *
     * @param masterPort the master that was killed
     * @param replicaPort its replica, which was promoted
     * @param failedKeys the run's keys that the killed master served
     * @param replicationCut whether the replica was cut off before the kill
     * @param unreplicatedSections sections on those keys while the replica was cut off (0 if it was not)
     * @param sectionsBeforeKill sections the checker had seen on those keys before the kill
     * @param violationsBeforeKill violations the checker had counted before the kill, on any key
     * @param killedAt when the master was SIGKILLed
     * @param promotedAt when every live node agreed that the replica served its slots
     * @param sectionsAtPromotion sections on those keys by then
     * @param recoveredAt when the checker first saw a new section on those keys after the promotion, if before the end
     */
    record Timeline(
            int masterPort,
            int replicaPort,
            List<String> failedKeys,
            boolean replicationCut,
            long unreplicatedSections,
            long sectionsBeforeKill,
            long violationsBeforeKill,
            Duration killedAt,
            Duration promotedAt,
            long sectionsAtPromotion,
            Optional<Duration> recoveredAt) {}
}
