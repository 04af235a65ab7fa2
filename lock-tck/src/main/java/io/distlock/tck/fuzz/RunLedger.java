package io.distlock.tck.fuzz;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The witness's records of one run, kept in the parent JVM and judged by its clock: the violations by kind, overall and
 * for each key, the first {@value #MAX_DETAILS} of them described, and the claim lapses; the claims themselves are the
 * subclass's, for keys ({@link KeyLedger}) or for the paths of a tree ({@link PathLedger}). Every judgement holds the
 * ledger's monitor, so that it is atomic: no other judgement sees a claim half made.
 */
abstract class RunLedger implements Ledger {

    /** Enough to see what went wrong, without keeping every violation of a broken lock. */
    static final int MAX_DETAILS = 200;

    private final LongSupplier clock;
    private final Map<String, Long> violations = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> violationsByKey = new HashMap<>();
    private final List<String> details = new ArrayList<>();
    private long lapses;

    /** A ledger that judges by {@code clock}, ms since the epoch: the same host's as the lease ends read. */
    RunLedger(LongSupplier clock) {
        this.clock = clock;
    }

    /** The ledger of a run whose sections do {@code mix}, judged by this JVM's clock. */
    static RunLedger of(SectionMix mix) {
        if (mix.paths()) {
            return new PathLedger(System::currentTimeMillis);
        }
        return new KeyLedger(
                System::currentTimeMillis, mix == SectionMix.PERMITS ? SectionMix.PERMITS_PER_KEY : KeyLedger.READERS);
    }

    /**
     * Sections that have entered holding the lock of one of these keys so far.
     *
     * @param names key names of the run
     */
    abstract long sectionsOn(Collection<String> names);

    /** What the ledger recorded, read back after the run, for the run's keys {@code keyNames}. */
    abstract CheckerRecords records(List<String> keyNames);

    /** The key under which a section's violations count: its own, or its tree's. */
    abstract String countedUnder(Claimant section);

    @Override
    public synchronized void takenEarly(Claimant section, String when) {
        violation(
                "taken-early",
                countedUnder(section),
                "taken early: the lock of " + section.id() + " was gone at " + when
                        + " before its lease could have run out");
    }

    /** Violations of every kind so far. */
    synchronized long violationsSoFar() {
        return violations.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The witness's time now, ms since the epoch. */
    final long now() {
        return clock.getAsLong();
    }

    /** The lock key as {@code read}, by the witness's clock now; null if the read is stale. */
    final @Nullable LockSight sight(HolderRead read, Claimant section) {
        return LockSight.of(read, section.ownerToken(), now());
    }

    /** Counts a violation of {@code kind}, overall and for {@code key}, and describes it while there is room. */
    final void violation(String kind, String key, String description) {
        violations.merge(kind, 1L, Long::sum);
        violationsByKey.computeIfAbsent(key, k -> new LinkedHashMap<>()).merge(kind, 1L, Long::sum);
        if (details.size() < MAX_DETAILS) {
            details.add(description);
        }
    }

    /**
     * Counts a claim that had ended while its holder still owned the lock with more than the claim's margin left: time
     * in which the witness was blind.
     */
    final void lapse() {
        lapses++;
    }

    final Map<String, Long> violations() {
        return new LinkedHashMap<>(violations);
    }

    final Map<String, Long> violationsOf(String key) {
        return new LinkedHashMap<>(violationsByKey.getOrDefault(key, Map.of()));
    }

    final List<String> details() {
        return List.copyOf(details);
    }

    final long lapses() {
        return lapses;
    }
}
