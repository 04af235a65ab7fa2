package io.distlock.redis.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fuzz.Count;
import io.distlock.tck.fuzz.FuzzReport;
import io.distlock.tck.fuzz.FuzzSettings;
import io.distlock.tck.fuzz.MutualExclusionFuzz;
import io.distlock.test.redis.TestRedisCluster;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cross-process mutual-exclusion fuzz of {@link MutualExclusionFuzzTest} with its locks on a Redis Cluster of three
 * masters with one replica each; the checker's records are kept by its witness in the test's JVM, which no fault
 * touches. The checker reads each lock key from the master that serves its slot (see {@link ClusterLockView}); the
 * run's keys are spread over all three masters.
 *
 * <p>On a healthy cluster the fuzz must find no violation at all. With a master SIGKILLed part-way and its replica
 * promoted, Redis's asynchronous replication may lose a lock, or a fencing counter's latest increments, that the
 * master had not copied yet: then a second holder may enter while the first is inside, or the first finds its lock
 * gone before its lease ended. Those runs therefore report their violations, by kind and key, rather than forbid them;
 * they assert what must hold all the same: the harness ran without errors, nothing was violated before the kill nor on
 * the keys of the masters left alone, every violation is of a kind a lost write explains, every lost section's holder
 * was told, and the workers took locks on the failed-over keys again after the promotion. A second failover run cuts
 * the replica off shortly before the kill, so that lost writes are certain rather than a matter of timing: the promoted
 * replica then hands out fencing tokens a second time, and brings back the locks its master had at the cut, released
 * since, until their leases run out. A control run drives a broken lock on the cluster, which the checker must catch.
 *
 * <p>The tables are printed to the test's output (under {@code target/surefire-reports}). The default runs are sized
 * for the build; a soak runs the fuzz and the failover runs for longer with the settings of {@link FuzzSettings}, for
 * example two minutes each (the master is killed a quarter of the way into a run):
 *
 * <pre>
 * ./mvnw -pl lock-redis -am verify -Dtest=ClusterMutualExclusionFuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfuzz.seconds=120 -Dfuzz.processes=3 -Dfuzz.threads=6
 * </pre>
 *
 * <p>or one of them, with {@code -Dtest='ClusterMutualExclusionFuzzTest#aMasterFailoverMidRunAfter*'} for example.
 */
class ClusterMutualExclusionFuzzTest {

    private static final Duration HEAL_TIMEOUT = Duration.ofSeconds(60);

    /**
     * A caller whose command went to the dead master waits out the command timeout, and its thread with it: 5 s, not
     * the default 10 s, so that the workers' threads, which soon all wait there, get going again well within a run.
     */
    private static final LockOptions FAILOVER_LOCK_OPTIONS = new LockOptions(Duration.ofSeconds(5), 0);

    /** The same, with every grant waiting for the replica's acknowledgement. */
    private static final LockOptions ACKNOWLEDGED_LOCK_OPTIONS = new LockOptions(Duration.ofSeconds(5), 1);

    /** The kinds of violation a lock or fencing increment lost at failover explains; anything else must not happen. */
    private static final Set<String> FAILOVER_VIOLATIONS = Set.of("overlap", "taken-early", "fencing");

    private static TestRedisCluster cluster;

    @BeforeAll
    static void startServers() {
        cluster = TestRedisCluster.start();
    }

    @AfterAll
    static void stopServers() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void healCluster() {
        cluster.heal(HEAL_TIMEOUT);
    }

    @Test
    void distlockNeverLetsTwoHoldersIntoTheSameCriticalSectionOnAHealthyCluster() {
        FuzzSettings settings = FuzzSettings.fromEnvironment(5, 2, 5, 6);

        FuzzReport report = MutualExclusionFuzz.runWithoutViolations(
                RedisFuzzServers.cluster(cluster), LockKind.DISTLOCK.lock(), settings);

        assertThat(Set.copyOf(report.placement().servedBy().values()))
                .as("masters serving the run's keys")
                .hasSize(3);
    }

    /**
     * Reading lock keys from the cluster, the checker still catches a broken lock; a short run
     * does, since this lock is caught hundreds of times a second.
     */
    @Test
    void theCheckerCatchesABrokenLockOnTheCluster() {
        FuzzSettings settings = FuzzSettings.control();

        MutualExclusionFuzz.runCaught(
                RedisFuzzServers.cluster(cluster), LockKind.RELEASE_WITHOUT_COMPARE.lock(), settings);
    }

    @Test
    @Tag("full") // the default build's failover cases: RedisLockClusterFailoverTest, and the run with acknowledgements
    void aMasterFailoverMidRunLosesAtMostWhatReplicationHadNotCopied() {
        failoverRun(MasterFailover.killingTheMaster(cluster), FAILOVER_LOCK_OPTIONS);
    }

    @Test
    @Tag("full") // shows a loss that replication allows; the run with acknowledgements below guards its zero
    void aMasterFailoverMidRunAfterReplicationWasCutLosesTheUnreplicatedLocks() {
        MasterFailover failover = MasterFailover.cuttingReplicationThenKillingTheMaster(cluster);
        failoverRun(failover, FAILOVER_LOCK_OPTIONS);

        assertThat(failover.timeline().unreplicatedSections())
                .as("sections granted by the master while cut off from its replica")
                .isPositive();
    }

    /**
     * With replica acknowledgements, no grant counts that the replica does not have: once replication is cut, grants on
     * the cut master are refused and freed, so the failover loses no lock that anyone holds and repeats no fencing
     * token that anyone used.
     */
    @Test
    void withReplicaAcknowledgementsAFailoverAfterReplicationWasCutLosesNoLock() {
        FuzzReport report =
                failoverRun(MasterFailover.cuttingReplicationThenKillingTheMaster(cluster), ACKNOWLEDGED_LOCK_OPTIONS);

        assertThat(report.violations())
                .as("violations with replica acknowledgements; evidence:%n%s", report.evidence())
                .isZero();
    }

    /**
     * One failover run: the distlock fuzz with {@code failover} done to the cluster part-way, the workers' locks
     * configured by {@code lockOptions}.
     */
    private static FuzzReport failoverRun(MasterFailover failover, LockOptions lockOptions) {
        FuzzSettings settings = FuzzSettings.fromEnvironment(18, 2, 5, 6);

        FuzzReport report = MutualExclusionFuzz.run(
                RedisFuzzServers.cluster(cluster), LockKind.DISTLOCK.lock(lockOptions), settings, failover);

        MasterFailover.Timeline timeline = failover.timeline();
        System.out.println(FailoverSummary.table(timeline, report));
        assertThat(report.errors())
                .as("errors of the harness or unexpected errors of the lock; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(report.totals().get(Count.LOCK_UNREADABLE))
                .as(
                        "sections the checker could not judge, although it waits out a failover; evidence:%n%s",
                        report.evidence())
                .isZero();
        assertThat(timeline.violationsBeforeKill())
                .as("violations before the kill; evidence:%n%s", report.evidence())
                .isZero();
        report.records().byKey().forEach((key, records) -> {
            if (timeline.failedKeys().contains(key)) {
                assertThat(FAILOVER_VIOLATIONS)
                        .as("kinds of violation on %s, whose master was killed", key)
                        .containsAll(records.violations().keySet());
            } else {
                assertThat(records.totalViolations())
                        .as("violations on %s, whose master was left alone; evidence:%n%s", key, report.evidence())
                        .isZero();
                assertThat(records.sectionsChecked()).as("sections on %s", key).isPositive();
            }
        });
        assertThat(report.totals().get(Count.UNDETECTED_LOSS))
                .as("lost sections whose holder was not told; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(report.totals().get(Count.REENTRY_FAILED))
                .as("re-entries refused or with another fencing token; evidence:%n%s", report.evidence())
                .isZero();
        if (lockOptions.replicaAcks() == 0) {
            // With acknowledgements, the promoted replica grants nothing until a replica of its own is back.
            assertThat(timeline.recoveredAt())
                    .as("a section on the failed-over keys after the promotion, before the run ended")
                    .isPresent();
        }
        return report;
    }
}
