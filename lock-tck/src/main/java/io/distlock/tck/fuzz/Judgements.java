package io.distlock.tck.fuzz;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.ToIntFunction;
import org.awaitility.core.ConditionTimeoutException;

/**
 * How a {@link Checker} has a section judged: it reads the section's lock key through the {@link LockView}, passes what
 * it read to the witness, and reads again while the witness finds the last read stale; and it reports the early
 * takeovers that only the holder's own clock reveals.
 */
final class Judgements {

    /**
     * How long after a stale read the checker reads again: a read is stale only in the last 2 ms of the lease it read,
     * so by then that lease has ended, and the key is gone, someone else's, or renewed.
     */
    private static final Duration REREAD_AFTER = Duration.ofMillis(3);

    /**
     * A bound only: reads go on being stale only while renewals keep arriving in a lease's last moment. Longer than a
     * read waits out a failover, so that a re-read sent to a dead master still counts.
     */
    private static final Duration STALE_PATIENCE = Duration.ofSeconds(30);

    private final Ledger witness;
    private final LockView lockView;

    Judgements(Ledger witness, LockView lockView) {
        this.witness = witness;
        this.lockView = lockView;
    }

    /** Judges the section's entry; the verdict is a {@link Ledger}'s. */
    int enter(Section section) {
        Claimant claimant = Claimant.of(section);
        return judge(section, "entry", read -> witness.enter(claimant, read));
    }

    /** Judges the section at {@code checkpoint}; the verdict is a {@link Ledger}'s. */
    int checkpoint(Section section, Ledger.Checkpoint checkpoint) {
        Claimant claimant = Claimant.of(section);
        return judge(section, checkpoint.label(), read -> witness.checkpoint(claimant, checkpoint, read));
    }

    /**
     * Runs a judgement of {@code section}; a verdict that the lock was not the holder's while its lease is certainly
     * still alive by the holder's clock is recorded as taken early, and turned into a violation.
     *
     * @param when what the section was doing, for the description of a violation
     */
    private int judge(Section section, String when, ToIntFunction<HolderRead> judgement) {
        int verdict = untilFresh(section, judgement);
        if (verdict == Ledger.NOT_OWN && section.leaseCertainlyAlive()) {
            witness.takenEarly(Claimant.of(section), when);
            return Ledger.VIOLATION;
        }
        return verdict;
    }

    /** Runs a judgement on a fresh read of the lock key, again while the witness finds the last one stale. */
    private int untilFresh(Section section, ToIntFunction<HolderRead> judgement) {
        int verdict = once(section, judgement);
        if (verdict != Ledger.STALE) {
            return verdict;
        }
        try {
            return await("a read of " + section.lockKey() + " that its lease's end has not made stale")
                    .atMost(STALE_PATIENCE)
                    .pollDelay(REREAD_AFTER)
                    .pollInterval(REREAD_AFTER)
                    .pollInSameThread()
                    .until(() -> once(section, judgement), again -> again != Ledger.STALE);
        } catch (ConditionTimeoutException e) {
            section.unreadable(true);
            throw new LockView.Unreadable(section.lockKey(), e);
        }
    }

    private int once(Section section, ToIntFunction<HolderRead> judgement) {
        HolderRead read;
        try {
            read = lockView.read(section.lockKey(), section.handle().ownerToken());
        } catch (LockView.Unreadable e) {
            section.unreadable(true);
            throw e;
        }
        return judgement.applyAsInt(read);
    }
}
