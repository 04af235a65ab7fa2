package io.distlock.redis.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fuzz.FuzzReport;
import io.distlock.tck.fuzz.FuzzSettings;
import io.distlock.tck.fuzz.FuzzWorker;
import io.distlock.tck.fuzz.MutualExclusionFuzz;
import io.distlock.tck.fuzz.Operation;
import io.distlock.tck.fuzz.Totals;
import io.distlock.test.redis.TestRedis;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Mutual exclusion at scale, across processes: several worker JVMs ({@link FuzzWorker}) with several threads each
 * hammer a few shared keys with every way of taking a lock (try once, try with a wait, block, {@code callWithLock},
 * {@code runWithLock}, nested re-entry released in either order, release from another thread), under long fixed
 * leases, short fixed leases that sections often outlive, and auto-renewed leases, some held across several renewals.
 *
 * <p>An independent checker records every critical section with a witness in the test's JVM, which the workers reach
 * over a loopback socket, each judgement with the lock key read just before on a connection of the checker's own.
 * Entering, a section claims its key until just before the holder's lease ends (read from the lock's key), and appends
 * its fencing token to the key's list; exiting, it removes its claim. A section
 * that finds another's claim alive overlapped it; a section whose lock key is gone while its claim is alive, or before
 * its lease can have run out by its own clock, had its lock taken early; a fencing token that does not rise is out of
 * order (checked as sections enter, and again from the lists afterwards). A section whose lease ran out is
 * <em>lost</em>, not a violation, since its claim expired with the lease, but its holder must be told: a release (or
 * {@code callWithLock}) that returns normally after a lost section is a violation. Each worker prints a summary line;
 * the parent adds them up with the checker's records and prints a table (in the test's output file under
 * {@code target/surefire-reports}).
 *
 * <p>In the read-write mode most sections are readers ({@code RedisLock.reading()}), the rest writers (the
 * {@code RedisLock} itself), on the same keys. Readers may be inside together, each claiming the key until its own
 * lease ends (read from its field of the key's hash of readers); a writer must overlap no one, a reader no writer; a
 * writer's fencing token must rise above every earlier one, a reader's above the last writer's. The run must show
 * readers inside together, or it would pass with readers taking turns.
 *
 * <p>In the path mode the keys are the paths of one random tree, locked through
 * {@code RedisLock.tree(...)}: a path conflicts with itself, its ancestors and its descendants. The witness claims
 * each section's path among the tree's live claims and compares paths segment by segment; fencing tokens, one counter for the tree, must rise across conflicting paths. The run must show sections
 * inside paths apart from each other at once, and refusals while only an ancestor or descendant was inside.
 *
 * <p>With asynchronous holders, each worker JVM keeps as many acquisitions in flight as it would have threads, through
 * {@code tryAcquireAsync} and {@code acquireAsync}, no thread waiting for the lock; a section runs when its acquisition
 * completes, and is released there or from yet another thread. The checker and its records are the same.
 *
 * <p>{@link BrokenLocksFuzzTest} drives deliberately broken locks with the same workers, to show that the checker
 * catches them.
 *
 * <p>The default run is sized for the build. A soak run (see {@link FuzzSettings} for the settings):
 *
 * <pre>
 * ./mvnw -pl lock-redis -am verify -Dtest=MutualExclusionFuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfuzz.seconds=600 -Dfuzz.processes=4 -Dfuzz.threads=8
 * </pre>
 */
class MutualExclusionFuzzTest {

    /**
     * Two worker JVMs and sixteen threads on one tree: 10 s gave some 850 sections and 60 to 150 refusals by an ancestor
     * or descendant on a busy two-core machine, so 6 s still shows both many times over.
     */
    private static final int PATH_SECONDS = 6;

    private static final int PATH_PROCESSES = 2;
    private static final int PATH_THREADS = 8;

    /** Short, like the broken locks' runs: the asynchronous holders run the same sections as the threads do. */
    private static final int ASYNC_SECONDS = 5;

    private static final int ASYNC_PROCESSES = 2;
    private static final int ASYNC_IN_FLIGHT = 6;

    private static TestRedis redis;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"DISTLOCK", "FAIR", "LOCAL_HANDOVER"})
    void distlockNeverLetsTwoHoldersIntoTheSameCriticalSection(LockKind kind) {
        runWithoutViolations(kind);
    }

    @Test
    void distlockLetsReadersShareACriticalSectionButNeverWithAWriter() {
        runWithoutViolations(LockKind.READ_WRITE, FuzzSettings.fromEnvironment(), report -> {
            Totals totals = report.totals();
            for (Operation operation : Operation.forHolders(false)) {
                assertThat(totals.reads(operation))
                        .as("acquisitions by readers through %s", operation.label())
                        .isPositive();
                assertThat(totals.get(operation) - totals.reads(operation))
                        .as("acquisitions by writers through %s", operation.label())
                        .isPositive();
            }
            assertThat(report.records().readersBesideReaders())
                    .as("readers that entered while another reader was inside")
                    .isPositive();
        });
    }

    @Test
    void distlockNeverLetsMoreSectionsIntoAKeyThanItHasPermits() {
        runWithoutViolations(
                LockKind.SEMAPHORE, FuzzSettings.fromEnvironment(), MutualExclusionFuzz::showsPermitsShared);
    }

    @Test
    void distlockNeverLetsASectionIntoAPathWhileItsAncestorOrDescendantIsHeld() {
        runWithoutViolations(
                LockKind.PATH,
                FuzzSettings.fromEnvironment(PATH_SECONDS, PATH_PROCESSES, PATH_THREADS, 1),
                MutualExclusionFuzz::showsPathsApartAndRelativesRefused);
    }

    @Test
    void asyncHoldersNeverOverlap() {
        runWithoutViolations(
                LockKind.DISTLOCK,
                FuzzSettings.fromEnvironment(ASYNC_SECONDS, ASYNC_PROCESSES, ASYNC_IN_FLIGHT, 4)
                        .withAsyncHolders());
    }

    private static FuzzReport runWithoutViolations(LockKind kind) {
        return runWithoutViolations(kind, FuzzSettings.fromEnvironment());
    }

    /**
     * Runs the fuzz on {@code kind} and asserts that the checker saw every acquisition and no violation, and that the
     * run exercised every operation, lost leases and long renewed holds.
     */
    private static FuzzReport runWithoutViolations(LockKind kind, FuzzSettings settings) {
        return runWithoutViolations(kind, settings, report -> {});
    }

    /**
     * Runs the fuzz on {@code kind} as {@link MutualExclusionFuzz#runWithoutViolations}, where a run must also show what
     * {@code alsoShown} asserts.
     */
    private static FuzzReport runWithoutViolations(
            LockKind kind, FuzzSettings settings, Consumer<FuzzReport> alsoShown) {
        return MutualExclusionFuzz.runWithoutViolations(
                RedisFuzzServers.oneRedis(redis), kind.lock(), settings, alsoShown);
    }
}
