package io.distlock.test.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;

/**
 * The cross-process mutual-exclusion fuzz, for a backend's tests or a user's own {@link io.distlock.Lock}: several
 * worker JVMs with several threads each hammer a few shared keys with every way of taking a lock, under long, short
 * and auto-renewed leases, while an independent checker records every critical section in a Redis of its own with Lua
 * scripts and catches two holders inside at once, a lock taken before its lease ended, and fencing tokens out of
 * order. Each worker builds the lock through the run's {@link FuzzLockFactory}, found on the class path of the JVM
 * that starts the run.
 *
 * <pre>{@code
 * FuzzServers servers = FuzzServers.store(checker, jdbcUrl, "PostgreSQL");
 * MutualExclusionFuzz.runWithoutViolations(
 *         servers, FuzzLock.storeLock(MyFuzzLocks.class), FuzzSettings.fromEnvironment(10, 2, 5, 4));
 * MutualExclusionFuzz.runCaught(servers, FuzzLock.shortLeaseStoreLock(MyFuzzLocks.class), FuzzSettings.control());
 * }</pre>
 *
 * <p>Every run prints its report's tables to standard output, which the build keeps with the test's output.
 */
public final class MutualExclusionFuzz {

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
     * @param servers where the checker's records and the locks are
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
     * @param servers where the checker's records and the locks are
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
     * @param servers where the checker's records and the locks are
     * @param lock the lock the workers drive
     * @param settings the run's size
     * @return the report, for further assertions
     */
    public static FuzzReport runWithoutViolations(FuzzServers servers, FuzzLock lock, FuzzSettings settings) {
        FuzzReport report = run(servers, lock, settings);
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
        for (Operation operation : Operation.forHolders(settings.asyncHolders())) {
            assertThat(totals.get(operation))
                    .as("acquisitions by %s", operation.label())
                    .isPositive();
        }
        assertThat(totals.get(Count.LOST_DETECTED))
                .as("short leases ran out inside sections")
                .isPositive();
        assertThat(totals.get(Count.LOSS_NOT_YET_SEEN_BY_IS_LOST))
                .as("lost sections whose isLost() was still false, although it errs on the side of lost")
                .isZero();
        assertThat(totals.get(LeaseProfile.RENEWED_HELD))
                .as("auto-renewed sections held across renewals")
                .isPositive();
        return report;
    }

    /**
     * Runs the fuzz on a deliberately broken lock, and asserts that the run had no errors and that the checker caught
     * overlaps or early takeovers.
     *
     * @param servers where the checker's records and the locks are
     * @param lock the broken lock the workers drive
     * @param settings the run's size, such as {@link FuzzSettings#control()}
     * @return the report, for further assertions
     */
    public static FuzzReport runCaught(FuzzServers servers, FuzzLock lock, FuzzSettings settings) {
        FuzzReport report = run(servers, lock, settings);
        assertNoErrors(report);
        assertThat(report.records().violation("overlap") + report.records().violation("taken-early"))
                .as("overlaps and early takeovers caught")
                .isPositive();
        System.out.println(report.evidence());
        return report;
    }

    private static void assertNoErrors(FuzzReport report) {
        assertThat(report.errors())
                .as("errors; evidence:%n%s", report.evidence())
                .isZero();
    }
}
