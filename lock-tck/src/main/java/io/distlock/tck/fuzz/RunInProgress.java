package io.distlock.tck.fuzz;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * A fuzz run while its workers hammer, as the parent sees it, for a {@link Disruption} to time itself by: its keys, its
 * clock, and what the checker's witness, in this JVM, has recorded so far.
 */
public final class RunInProgress {

    private final RunLedger ledger;
    private final String lockPrefix;
    private final List<String> keyNames;
    private final Duration length;
    private final long startedNanos;

    RunInProgress(RunLedger ledger, String lockPrefix, List<String> keyNames, Duration length, long startedNanos) {
        this.ledger = ledger;
        this.lockPrefix = lockPrefix;
        this.keyNames = List.copyOf(keyNames);
        this.length = length;
        this.startedNanos = startedNanos;
    }

    /**
     * The names of the run's lock keys, as the sections take them.
     *
     * @return the key names
     */
    public List<String> keyNames() {
        return keyNames;
    }

    /**
     * The run's prefix for the lock's own keys ({@link FuzzTarget#keyPrefix()}), from which a lock's store key follows.
     *
     * @return the prefix
     */
    public String lockPrefix() {
        return lockPrefix;
    }

    /**
     * How long the workers hammer, from the start signal.
     *
     * @return the run's length
     */
    public Duration length() {
        return length;
    }

    /**
     * The time since the workers were told to start.
     *
     * @return the time since the start signal
     */
    public Duration sinceStart() {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /**
     * Critical sections the checker has seen enter holding the lock of one of these keys so far.
     *
     * @param names key names of the run
     * @return the sections on them so far
     */
    public long sectionsOn(Collection<String> names) {
        return ledger.sectionsOn(names);
    }

    /**
     * Violations the checker's witness has counted so far, of every kind.
     *
     * @return the violations so far
     */
    public long violationsSoFar() {
        return ledger.violationsSoFar();
    }
}
