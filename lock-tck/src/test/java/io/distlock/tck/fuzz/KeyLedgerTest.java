package io.distlock.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The witness's judgements of sections on keys, one call after another on a clock the test sets: overlaps of writers
 * and readers, fencing tokens, early takeovers, stale reads and claims that end with their lease.
 */
class KeyLedgerTest {

    private static final String KEY = "key0";
    private static final long LEASE = 10_000;

    private long now = 1_000_000;
    private final KeyLedger ledger = new KeyLedger(() -> now);

    @Test
    void writerEnteringWhileAnotherClaimIsAliveIsAnOverlap() {
        assertThat(ledger.enter(writer("a", 1), heldBy("a"))).isEqualTo(Ledger.OWN);

        assertThat(ledger.enter(writer("b", 2), heldBy("b"))).isEqualTo(Ledger.VIOLATION);

        CheckerRecords records = records();
        assertThat(records.violation("overlap")).isEqualTo(1);
        assertThat(records.byKey().get(KEY).violations()).containsEntry("overlap", 1L);
        assertThat(records.details()).containsExactly("overlap: b entered while a was inside with lease left");
    }

    @Test
    void writerEnteringAfterTheOtherLeftIsNoOverlap() {
        ledger.enter(writer("a", 1), heldBy("a"));
        ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.EXIT, heldBy("a"));

        assertThat(ledger.enter(writer("b", 2), heldBy("b"))).isEqualTo(Ledger.OWN);
        assertThat(records().totalViolations()).isZero();
    }

    @Test
    void aClaimIsAliveUntilTwoMillisecondsBeforeTheLeaseAsRead() {
        ledger.enter(writer("a", 1), HolderRead.until("a", now + 100));
        now += 98;

        assertThat(ledger.enter(writer("b", 2), heldBy("b"))).isEqualTo(Ledger.VIOLATION);
    }

    @Test
    void writerEnteringOnceTheOtherClaimEndedIsNoOverlap() {
        ledger.enter(writer("a", 1), HolderRead.until("a", now + 100));
        now += 99;

        assertThat(ledger.enter(writer("b", 2), heldBy("b"))).isEqualTo(Ledger.OWN);
        assertThat(records().totalViolations()).isZero();
    }

    @Test
    void aClaimEndsWithItsLeaseWhileTheHolderMayStillHoldTheLock() {
        ledger.enter(writer("a", 1), HolderRead.until("a", now + 100));
        now += 98;
        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.CHECK, heldBy("a")))
                .isEqualTo(Ledger.OWN);
        assertThat(records().claimLapses()).as("claimed still").isZero();
        now += 1;

        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.CHECK, heldBy("a")))
                .isEqualTo(Ledger.OWN);
        assertThat(records().claimLapses()).as("renewed, but not claimed").isEqualTo(1);
    }

    @Test
    void readerEnteringBesideAReaderIsCountedAndNoOverlap() {
        ledger.enter(reader("a", 1), heldBy("a"));

        assertThat(ledger.enter(reader("b", 2), heldBy("b"))).isEqualTo(Ledger.OWN);

        CheckerRecords records = records();
        assertThat(records.readersBesideReaders()).isEqualTo(1);
        assertThat(records.readerSections()).isEqualTo(2);
        assertThat(records.totalViolations()).isZero();
    }

    @Test
    void writerEnteringBesideAReaderIsAnOverlap() {
        ledger.enter(reader("a", 1), heldBy("a"));

        assertThat(ledger.enter(writer("b", 2), heldBy("b"))).isEqualTo(Ledger.VIOLATION);

        assertThat(records().details())
                .containsExactly("overlap: writer b entered while reader a was inside with lease left");
    }

    @Test
    void readerEnteringBesideAWriterIsAnOverlap() {
        ledger.enter(writer("a", 1), heldBy("a"));

        assertThat(ledger.enter(reader("b", 2), heldBy("b"))).isEqualTo(Ledger.VIOLATION);

        assertThat(records().violation("overlap")).isEqualTo(1);
    }

    @Test
    void writerWhoseFencingTokenIsNotAboveAnEarlierOneGoesBackwards() {
        enterAndLeave(writer("a", 5));

        assertThat(ledger.enter(writer("b", 5), heldBy("b"))).isEqualTo(Ledger.VIOLATION);

        CheckerRecords records = records();
        assertThat(records.violation("fencing")).isEqualTo(1);
        assertThat(records.details()).containsExactly("fencing: b entered after fencing token 5");
        assertThat(records.fenceInversions()).as("found again offline").isEqualTo(1);
    }

    @Test
    void readerNeedOnlyPassTheLastWritersFencingToken() {
        enterAndLeave(writer("w", 2));
        enterAndLeave(reader("late", 4));

        assertThat(ledger.enter(reader("early", 3), heldBy("early")))
                .as("a reader that got its token before another reader entered")
                .isEqualTo(Ledger.OWN);
        ledger.leave(reader("early", 3));
        assertThat(ledger.enter(reader("stale", 2), heldBy("stale"))).isEqualTo(Ledger.VIOLATION);

        CheckerRecords records = records();
        assertThat(records.details()).containsExactly("fencing: stale entered after a writer's fencing token 2");
        assertThat(records.fenceInversions()).isEqualTo(1);
    }

    @Test
    void aReadWithTwoMillisecondsLeftForTheSectionsOwnHolderIsStale() {
        assertThat(ledger.enter(writer("a", 1), HolderRead.until("a", now + 2))).isEqualTo(Ledger.STALE);
        assertThat(ledger.enter(writer("a", 1), HolderRead.until("a", now + 3))).isEqualTo(Ledger.OWN);
        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.CHECK, HolderRead.until("a", now - 5)))
                .isEqualTo(Ledger.STALE);
        assertThat(records().sectionsChecked())
                .as("a stale read records nothing")
                .isEqualTo(1);
    }

    @Test
    void anotherHoldersShortLeaseIsNotStaleButNotTheSections() {
        assertThat(ledger.enter(writer("a", 1), HolderRead.until("b", now + 1))).isEqualTo(Ledger.NOT_OWN);
        assertThat(records().sectionsChecked()).isZero();
    }

    @Test
    void aHolderThatBeginsWithTheOwnerTokenIsTheSections() {
        assertThat(ledger.enter(writer("a", 1), HolderRead.until("a+waiter", now + LEASE)))
                .isEqualTo(Ledger.OWN);
    }

    @Test
    void lockTakenOverWhileTheClaimIsAliveWasTakenEarly() {
        ledger.enter(writer("a", 1), heldBy("a"));

        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.CHECK, heldBy("b")))
                .isEqualTo(Ledger.VIOLATION);
        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.EXIT, HolderRead.none()))
                .isEqualTo(Ledger.VIOLATION);

        assertThat(records().details())
                .containsExactly(
                        "taken early: the lock of a was taken over before its lease ended",
                        "taken early: the lock of a was deleted before its lease ended");
    }

    @Test
    void lockGoneAfterTheClaimEndedIsLostNotTakenEarly() {
        ledger.enter(writer("a", 1), HolderRead.until("a", now + 50));
        now += 49;

        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.EXIT, heldBy("b")))
                .isEqualTo(Ledger.NOT_OWN);
        assertThat(records().totalViolations()).isZero();
    }

    @Test
    void aClaimThatEndedWhileTheLockIsStillHeldIsALapseUntilRefreshed() {
        ledger.enter(writer("a", 1), HolderRead.until("a", now + 50));
        now += 60;

        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.REFRESH, heldBy("a")))
                .isEqualTo(Ledger.OWN);
        assertThat(records().claimLapses()).isEqualTo(1);
        assertThat(ledger.enter(writer("b", 2), heldBy("b")))
                .as("the refreshed claim is alive again")
                .isEqualTo(Ledger.VIOLATION);
    }

    @Test
    void refreshExtendsTheClaimToTheLeaseAsRead() {
        ledger.enter(writer("a", 1), HolderRead.until("a", now + 50));
        ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.REFRESH, HolderRead.until("a", now + 500));
        now += 100;

        assertThat(ledger.checkpoint(writer("a", 1), Ledger.Checkpoint.CHECK, HolderRead.none()))
                .as("still claimed, so a lock gone now was taken early")
                .isEqualTo(Ledger.VIOLATION);
    }

    @Test
    void takenEarlyByTheHoldersClockCountsForTheKey() {
        ledger.takenEarly(writer("a", 1), "entry");

        CheckerRecords records = records();
        assertThat(records.byKey().get(KEY).violations()).containsEntry("taken-early", 1L);
        assertThat(records.details())
                .containsExactly("taken early: the lock of a was gone at entry before its lease could have run out");
    }

    @Test
    void onlyTheFirstViolationsAreDescribed() {
        for (int i = 0; i < RunLedger.MAX_DETAILS + 5; i++) {
            ledger.takenEarly(writer("a" + i, i), "check");
        }

        CheckerRecords records = records();
        assertThat(records.violation("taken-early")).isEqualTo(RunLedger.MAX_DETAILS + 5);
        assertThat(records.details()).hasSize(RunLedger.MAX_DETAILS);
        assertThat(records.details().get(0)).contains("the lock of a0 ");
    }

    @Test
    void sectionsAndViolationsSoFarAreTheLedgersOwn() {
        ledger.enter(writer("a", 1), heldBy("a"));
        ledger.enter(writer("b", 2), HolderRead.until("b", now + LEASE));

        assertThat(ledger.sectionsOn(List.of(KEY, "key1"))).isEqualTo(2);
        assertThat(ledger.sectionsOn(List.of("key1"))).isZero();
        assertThat(ledger.violationsSoFar()).isEqualTo(1);
    }

    private void enterAndLeave(Claimant section) {
        assertThat(ledger.enter(section, heldBy(section.ownerToken()))).isEqualTo(Ledger.OWN);
        ledger.leave(section);
    }

    private HolderRead heldBy(String owner) {
        return HolderRead.until(owner, now + LEASE);
    }

    private CheckerRecords records() {
        return ledger.records(List.of(KEY));
    }

    private static Claimant writer(String owner, long fence) {
        return new Claimant(KEY, owner, owner, fence, false);
    }

    private static Claimant reader(String owner, long fence) {
        return new Claimant(KEY, owner, owner, fence, true);
    }
}
