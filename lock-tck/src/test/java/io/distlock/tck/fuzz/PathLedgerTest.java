package io.distlock.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The witness's judgements of sections on the paths of a tree, one call after another on a clock the test sets:
 * overlaps with the same path, an ancestor or a descendant, sections beside each other, fencing across relatives,
 * early takeovers and the refusals it counts.
 */
class PathLedgerTest {

    private static final long LEASE = 10_000;

    private long now = 1_000_000;
    private final PathLedger ledger = new PathLedger(() -> now);

    @Test
    void enteringAPathWhileAnAncestorIsClaimedIsAnOverlap() {
        ledger.enter(section("a", "x", 1), heldBy("a"));

        assertThat(ledger.enter(section("b", "/x/y/", 2), heldBy("b"))).isEqualTo(Ledger.VIOLATION);

        assertThat(records().details())
                .containsExactly("overlap: b entered \"x/y\" while a was inside an ancestor, \"x\", with lease left");
        assertThat(records().byKey().get(PathTree.NAME).violations()).containsEntry("overlap", 1L);
    }

    @Test
    void enteringAPathWhileADescendantIsClaimedIsAnOverlap() {
        ledger.enter(section("a", "x/y", 1), heldBy("a"));

        assertThat(ledger.enter(section("b", "x", 2), heldBy("b"))).isEqualTo(Ledger.VIOLATION);

        assertThat(records().details())
                .containsExactly("overlap: b entered \"x\" while a was inside a descendant, \"x/y\", with lease left");
    }

    @Test
    void enteringASiblingWhoseNameBeginsTheSameIsBesideNotAnOverlap() {
        ledger.enter(section("a", "x/b", 1), heldBy("a"));

        assertThat(ledger.enter(section("b", "x/bc", 2), heldBy("b"))).isEqualTo(Ledger.OWN);

        CheckerRecords records = records();
        assertThat(records.besideInTree()).isEqualTo(1);
        assertThat(records.totalViolations()).isZero();
    }

    @Test
    void aFencingTokenNotAboveOneThatEnteredARelativeGoesBackwards() {
        ledger.enter(section("a", "x/y", 5), heldBy("a"));
        ledger.leave(section("a", "x/y", 5));

        assertThat(ledger.enter(section("b", "x", 4), heldBy("b"))).isEqualTo(Ledger.VIOLATION);

        CheckerRecords records = records();
        assertThat(records.details())
                .containsExactly("fencing: b entered \"x\" after fencing token 5 had entered a descendant, \"x/y\"");
        assertThat(records.fenceInversions()).as("found again offline").isEqualTo(1);
    }

    @Test
    void aFencingTokenBelowOneOfAPathApartIsInOrder() {
        ledger.enter(section("a", "x", 5), heldBy("a"));

        assertThat(ledger.enter(section("b", "z", 4), heldBy("b"))).isEqualTo(Ledger.OWN);
        assertThat(records().totalViolations()).isZero();
    }

    @Test
    void lockDeletedWhileTheClaimIsAliveWasTakenEarly() {
        ledger.enter(section("a", "x", 1), heldBy("a"));

        assertThat(ledger.checkpoint(section("a", "x", 1), Ledger.Checkpoint.EXIT, HolderRead.none()))
                .isEqualTo(Ledger.VIOLATION);

        assertThat(records().details())
                .containsExactly("taken early: the lock of a on \"x\" was deleted before its lease ended");
    }

    @Test
    void anEndedClaimIsNoOverlapAndALapseForItsHolder() {
        ledger.enter(section("a", "x", 1), HolderRead.until("a", now + 50));
        now += 48;

        assertThat(ledger.enter(section("b", "x/y", 2), heldBy("b"))).isEqualTo(Ledger.OWN);
        assertThat(ledger.checkpoint(section("a", "x", 1), Ledger.Checkpoint.CHECK, heldBy("a")))
                .isEqualTo(Ledger.OWN);
        assertThat(records().claimLapses()).isEqualTo(1);
        assertThat(records().totalViolations()).isZero();
    }

    @Test
    void aRefreshAfterALapseClaimsAgainOnlyWhileNoRelativeIsInside() {
        ledger.enter(section("a", "x", 1), HolderRead.until("a", now + 50));
        now += 60;
        ledger.enter(section("b", "x/y", 2), heldBy("b"));

        ledger.checkpoint(section("a", "x", 1), Ledger.Checkpoint.REFRESH, heldBy("a"));
        ledger.leave(section("b", "x/y", 2));

        assertThat(ledger.enter(section("c", "x", 3), heldBy("c")))
                .as("a's claim was not made again beside b's")
                .isEqualTo(Ledger.OWN);
    }

    @Test
    void aRefusalCountsByWhoWasInside() {
        ledger.enter(section("a", "x/y", 1), heldBy("a"));

        ledger.refused("x");
        ledger.refused("z");
        ledger.refused("/x/y");

        CheckerRecords records = records();
        assertThat(records.refusedByRelatives())
                .as("x, refused by its descendant")
                .isEqualTo(1);
        assertThat(records.refusedByNoSection()).as("z, refused by no section").isEqualTo(1);
    }

    @Test
    void aStaleReadOfTheSectionsOwnLockRecordsNothing() {
        assertThat(ledger.enter(section("a", "x", 1), HolderRead.until("a", now + 2)))
                .isEqualTo(Ledger.STALE);
        assertThat(records().sectionsChecked()).isZero();
        assertThat(ledger.sectionsOn(List.of("x"))).isZero();
    }

    @Test
    void sectionsOnCountsTheEntriesOfThosePaths() {
        ledger.enter(section("a", "x", 1), heldBy("a"));
        ledger.enter(section("b", "z/y", 2), heldBy("b"));

        assertThat(ledger.sectionsOn(List.of("x", "z"))).isEqualTo(1);
    }

    private HolderRead heldBy(String owner) {
        return HolderRead.until(owner, now + LEASE);
    }

    private CheckerRecords records() {
        return ledger.records(List.of());
    }

    private static Claimant section(String owner, String path, long fence) {
        return new Claimant(path, owner, owner, fence, false);
    }
}
