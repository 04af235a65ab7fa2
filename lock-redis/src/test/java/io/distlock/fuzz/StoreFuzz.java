package io.distlock.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The fuzz runs of a lock in a store other than Redis, for the backend modules' fuzz tests, and what each must show:
 * what {@link MutualExclusionFuzzTest} asks of RedisLock, and of its broken locks.
 */
final class StoreFuzz {

    private StoreFuzz() {}

    /**
     * Runs the fuzz on the {@link LockKind#STORE} lock of {@code servers} and asserts that the checker saw every
     * acquisition and no violation, and that the run exercised every operation, lost leases and long renewed holds.
     */
    static FuzzReport runWithoutViolations(FuzzServers servers, FuzzSettings settings) {
        FuzzReport report = run(servers, LockKind.STORE, settings);
        Totals totals = report.totals();
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

    /** Runs the fuzz on the {@link LockKind#SHORT_LEASE_STORE} lock of {@code servers}, which the checker must catch. */
    static FuzzReport runCaught(FuzzServers servers, FuzzSettings settings) {
        FuzzReport report = run(servers, LockKind.SHORT_LEASE_STORE, settings);
        assertThat(report.records().violation("overlap") + report.records().violation("taken-early"))
                .as("overlaps and early takeovers caught")
                .isPositive();
        System.out.println(report.evidence());
        return report;
    }

    private static FuzzReport run(FuzzServers servers, LockKind kind, FuzzSettings settings) {
        FuzzReport report =
                assertTimeoutPreemptively(FuzzRun.budget(settings), () -> FuzzRun.run(servers, kind, settings));
        System.out.println(report.table());
        System.out.println(report.keyTable());
        assertThat(report.errors())
                .as("errors; evidence:%n%s", report.evidence())
                .isZero();
        return report;
    }
}
