package io.distlock.redis.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fuzz.Count;
import io.distlock.tck.fuzz.FuzzReport;
import io.distlock.tck.fuzz.FuzzSettings;
import io.distlock.tck.fuzz.MutualExclusionFuzz;
import io.distlock.tck.fuzz.Operation;
import io.distlock.tck.fuzz.Totals;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cross-process mutual-exclusion fuzz of {@link MutualExclusionFuzzTest} with its locks on a {@link
 * io.distlock.redis.Redlock} over three independent Redis masters; the checker's records are kept by its witness in the
 * test's JVM, which no fault touches. The checker judges a lock held by whoever a majority of the nodes names with a lease still
 * running, reading every node itself (see {@link RedlockLockView}).
 *
 * <p>A third of the way into the run one node is SIGKILLed and stays down. A Redlock survives the loss of a minority of
 * its nodes without losing a lock, since every holder had a majority and any two majorities share a node: the fuzz
 * must find no violation at all, before or after the kill, and the workers must go on taking locks on the two nodes
 * left. A control run drives a broken lock that counts one node's grant as held, which the checker must catch.
 *
 * <p>The tables are printed to the test's output (under {@code target/surefire-reports}). The default run is sized for
 * the build; a soak runs the fuzz for longer with the settings of {@link FuzzSettings}, for example two minutes (the node
 * is killed a third of the way into the run):
 *
 * <pre>
 * ./mvnw -pl lock-redis -am verify -Dtest='RedlockMutualExclusionFuzzTest#redlockNever*' \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dfuzz.seconds=120 -Dfuzz.processes=3 -Dfuzz.threads=6
 * </pre>
 */
class RedlockMutualExclusionFuzzTest {

    private static final int NODES = 3;

    /**
     * Once a node is dead, an attempt that one live node granted and the other refused waits for the dead node's
     * answer until its command times out, and keeps its grant meanwhile, which in turn splits the next attempts: 1 s
     * rather than 10 s, a per-node timeout small against the leases as Redlock wants it, so that such stalls pass well
     * within a run and its grace.
     */
    private static final LockOptions REDLOCK_LOCK_OPTIONS = new LockOptions(Duration.ofSeconds(1), 0);

    private final List<TestRedis> nodes = new ArrayList<>();

    /** Fresh servers for each run, since the fuzz leaves one node dead. */
    @BeforeEach
    void startServers() {
        for (int node = 0; node < NODES; node++) {
            nodes.add(TestRedis.start());
        }
    }

    @AfterEach
    void stopServers() {
        nodes.forEach(TestRedis::close);
    }

    @Test
    void redlockNeverLetsTwoHoldersIntoTheSameCriticalSectionWhileOneOfThreeNodesIsKilledMidRun() {
        FuzzSettings settings = FuzzSettings.fromEnvironment(16, 2, 5, 4);
        NodeKill kill = new NodeKill(nodes.get(1));

        FuzzReport report = MutualExclusionFuzz.run(
                RedisFuzzServers.redlock(nodes), LockKind.REDLOCK.lock(REDLOCK_LOCK_OPTIONS), settings, kill);

        NodeKill.Timeline timeline = kill.timeline();
        System.out.println(timeline.table());
        Totals totals = report.totals();
        assertThat(report.errors())
                .as("errors; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(report.violations())
                .as("violations; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(report.records().sectionsChecked() + totals.get(Count.LOST_BEFORE_ENTRY))
                .as("every acquisition was seen by the checker")
                .isEqualTo(totals.acquisitions());
        for (Operation operation : Operation.forHolders(false)) {
            assertThat(totals.get(operation))
                    .as("acquisitions by %s", operation.label())
                    .isPositive();
        }
        // A Redlock grant takes three nodes' answers, so a 15-40 ms lease often runs out before the grant arrives;
        // callWithLock then does not start the work, which counts as LOST_AT_GRANT rather than a section.
        assertThat(totals.get(Count.LOST_DETECTED) + totals.get(Count.LOST_AT_GRANT))
                .as("short leases ran out inside sections, or before their work started")
                .isPositive();
        assertThat(timeline.sectionsBeforeKill()).as("sections before the kill").isPositive();
        assertThat(timeline.sectionsAfterKill())
                .as("sections on the two nodes left, after the kill")
                .isPositive();
        assertThat(totals.get(Count.NODE_READ_FAILED))
                .as("checker's reads that found the killed node down")
                .isPositive();
    }

    /**
     * Judging by a majority of the nodes, apart from the lock's own quorum, the checker catches a lock that takes one
     * node's grant for the lock: each of its sections had the lock of one node, never of a majority, although its lease
     * was alive.
     */
    @Test
    void theCheckerCatchesALockThatCountsOneNodesGrantAsHeld() {
        FuzzSettings settings = FuzzSettings.control();

        FuzzReport report = MutualExclusionFuzz.runCaught(
                RedisFuzzServers.redlock(nodes), LockKind.ONE_NODE_OF_REDLOCK.lock(), settings);

        assertThat(report.records().violation("taken-early"))
                .as("sections without a majority caught")
                .isPositive();
    }
}
