package io.distlock.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The cross-process mutual-exclusion fuzz, for a backend's tests or a user's own {@link io.distlock.Lock}: several
 * worker JVMs with several threads each hammer a few shared keys with every way of taking a lock, under long, short
 * and auto-renewed leases, while an independent checker records every critical section and catches two holders inside
 * at once, a lock taken before its lease ended, and fencing tokens out of order. The checker needs no server: its
 * records and judgements are kept in this JVM, which the workers reach over a loopback socket. Each worker builds the lock through the run's {@link FuzzLockFactory}, found on the class path of the JVM
 * that starts the run.
 *
 * <pre>{@code
 * FuzzServers servers = FuzzServers.store(jdbcUrl, "PostgreSQL");
 * MutualExclusionFuzz.runWithoutViolations(
 *         servers, FuzzLock.storeLock(MyFuzzLocks.class), FuzzSettings.fromEnvironment(10, 2, 5, 4));
 * MutualExclusionFuzz.runCaught(servers, FuzzLock.shortLeaseStoreLock(MyFuzzLocks.class), FuzzSettings.control());
 * }</pre>
 *
 * <p>Every run prints its report's tables to standard output, which the build keeps with the test's output.
 *
 * <p>What a run must never show (a violation, an error, a lock key the checker could not read, a lost section its
 * handle did not notice) fails it at once. What a run must show to prove anything (every way of taking the lock used,
 * short leases outlived, long renewed holds, a broken lock caught) depends on how many sections the machine let it
 * run: a run that showed too little is followed by one twice as long, up to {@value #ROUNDS} rounds, each judged on
 * its own.
 */
public final class MutualExclusionFuzz {

    /** How many runs, each twice as long as the one before, a starved machine gets to show what a run must show. */
    static final int ROUNDS = 3;

    private MutualExclusionFuzz() {}

    /**
     * The longest a run of these settings takes before its waits give up; {@link #run} fails a run that takes longer.
     *
     * @param settings the run's size
     * @return the time budget
     */
    public static Duration budget(FuzzSettings settings) {
        return FuzzRun.budget(settings);
    }

    /**
     * Runs the fuzz on {@code lock} and prints its report; judges nothing.
     *
     * @param servers where the locks are
     * @param lock the lock the workers drive
     * @param settings the run's size
     * @return the report
     */
    public static FuzzReport run(FuzzServers servers, FuzzLock lock, FuzzSettings settings) {
        return run(servers, lock, settings, Disruption.NONE);
    }

    /**
     * Runs the fuzz on {@code lock}, with {@code disruption} done to the servers while the workers hammer, and prints
     * its report; judges nothing.
     *
     * @param servers where the locks are
     * @param lock the lock the workers drive
     * @param settings the run's size
     * @param disruption what the parent does to the servers during the run
     * @return the report
     */
    public static FuzzReport run(FuzzServers servers, FuzzLock lock, FuzzSettings settings, Disruption disruption) {
        FuzzReport report =
                assertTimeoutPreemptively(budget(settings), () -> FuzzRun.run(servers, lock, settings, disruption));
        System.out.println(report.table());
        System.out.println(report.keyTable());
        return report;
    }

    /**
     * Runs the fuzz on a lock that must never let two holders in, and asserts that the run had no errors, the checker
     * saw every acquisition, read every lock key and found no violation, and the run exercised every operation, lost
     * leases (each noticed by its handle) and long renewed holds.
     *
     * @param servers where the locks are
     * @param lock the lock the workers drive
     * @param settings the run's size
     * @return the report of the run that showed it all
     */
    public static FuzzReport runWithoutViolations(FuzzServers servers, FuzzLock lock, FuzzSettings settings) {
        return runWithoutViolations(servers, lock, settings, report -> {});
    }

    /**
     * As {@link #runWithoutViolations(FuzzServers, FuzzLock, FuzzSettings)}, where a run must also show what {@code
     * alsoShown} asserts (readers beside readers, say): a run that shows too little of it is followed by a longer one.
     *
     * @param servers where the locks are
     * @param lock the lock the workers drive
     * @param settings the first run's size
     * @param alsoShown assertions on a run's report that its length decides, never on what it must not show
     * @return the report of the run that showed it all
     */
    public static FuzzReport runWithoutViolations(
            FuzzServers servers, FuzzLock lock, FuzzSettings settings, Consumer<FuzzReport> alsoShown) {
        return inRounds(servers, lock, settings, MutualExclusionFuzz::assertSafe, report -> {
            assertExercised(report);
            alsoShown.accept(report);
        });
    }

    /**
     * What a run of a semaphore ({@link SectionMix#PERMITS}) must show besides safety, for {@link
     * #runWithoutViolations(FuzzServers, FuzzLock, FuzzSettings, Consumer)}: sections that entered while another held a
     * permit of the key, so that the semaphore did let its permits be shared.
     *
     * @param report a run's report
     */
    public static void showsPermitsShared(FuzzReport report) {
        assertThat(report.records().readersBesideReaders())
                .as("sections that entered while another held a permit of the key")
                .isPositive();
    }

    /**
     * What a run of a path lock ({@link SectionMix#PATHS}) must show besides safety, for {@link
     * #runWithoutViolations(FuzzServers, FuzzLock, FuzzSettings, Consumer)}: sections that entered while others were
     * inside paths of the tree apart from theirs, and refusals while only an ancestor or descendant was inside, or it
     * would pass with a lock that takes the whole tree.
     *
     * @param report a run's report
     */
    public static void showsPathsApartAndRelativesRefused(FuzzReport report) {
        assertThat(report.records().besideInTree())
                .as("sections that entered while others were inside paths of the tree apart from theirs")
                .isPositive();
        assertThat(report.records().refusedByRelatives())
                .as("acquisitions refused while only an ancestor or descendant of the path was inside")
                .isPositive();
    }

    /**
     * Runs the fuzz on a deliberately broken lock, and asserts that the run had no errors and that the checker caught
     * overlaps or early takeovers.
     *
     * @param servers where the locks are
     * @param lock the broken lock the workers drive
     * @param settings the first run's size, such as {@link FuzzSettings#control()}
     * @return the report of the run that caught it
     */
    public static FuzzReport runCaught(FuzzServers servers, FuzzLock lock, FuzzSettings settings) {
        FuzzReport caught = inRounds(
                servers,
                lock,
                settings,
                MutualExclusionFuzz::assertNoErrors,
                report -> assertThat(report.records().violation("overlap")
                                + report.records().violation("taken-early"))
                        .as("overlaps and early takeovers caught")
                        .isPositive());
        System.out.println(caught.evidence());
        return caught;
    }

    /**
     * Runs until a run passes {@code shown}, each run twice as long as the one before, at most {@link #ROUNDS}; every
     * run must pass {@code safe}, whose failure ends the rounds at once.
     */
    private static FuzzReport inRounds(
            FuzzServers servers,
            FuzzLock lock,
            FuzzSettings first,
            Consumer<FuzzReport> safe,
            Consumer<FuzzReport> shown) {
        FuzzSettings settings = first;
        for (int round = 1; ; round++) {
            FuzzReport report = run(servers, lock, settings);
            safe.accept(report);
            try {
                shown.accept(report);
                return report;
            } catch (AssertionError tooLittle) {
                if (round == ROUNDS) {
                    throw tooLittle;
                }
                settings = settings.twiceAsLong();
                System.out.printf(
                        "Round %d of %s showed too little to judge (%s); round %d runs %d s%n",
                        round, lock.label(), tooLittle.getMessage().strip(), round + 1, settings.seconds());
            }
        }
    }

    /** What a run of a lock that must never let two holders in must never show, however long it ran. */
    private static void assertSafe(FuzzReport report) {
        Totals totals = report.totals();
        assertNoErrors(report);
        assertThat(report.violations())
                .as("violations; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(totals.get(Count.LOCK_UNREADABLE))
                .as("lock keys the checker could not read; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(report.records().sectionsChecked() + totals.get(Count.LOST_BEFORE_ENTRY))
                .as("every acquisition was seen by the checker")
                .isEqualTo(totals.acquisitions());
        assertThat(totals.get(Count.LOSS_NOT_YET_SEEN_BY_IS_LOST))
                .as("lost sections whose isLost() was still false, although it errs on the side of lost")
                .isZero();
    }

    /** What a run must show to prove anything: every way of taking the lock, outlived leases, long renewed holds. */
    private static void assertExercised(FuzzReport report) {
        Totals totals = report.totals();
        for (Operation operation : Operation.forHolders(report.settings().asyncHolders())) {
            assertThat(totals.get(operation))
                    .as("acquisitions by %s", operation.label())
                    .isPositive();
        }
        assertThat(totals.get(Count.LOST_DETECTED))
                .as("short leases ran out inside sections")
                .isPositive();
        assertThat(totals.get(LeaseProfile.RENEWED_HELD))
                .as("auto-renewed sections held across renewals")
                .isPositive();
    }

    private static void assertNoErrors(FuzzReport report) {
        assertThat(report.errors())
                .as("errors; evidence:%n%s", report.evidence())
                .isZero();
    }
}
