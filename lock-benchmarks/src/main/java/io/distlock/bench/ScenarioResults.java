package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The measurements of every contender in one scenario, or in one round of the path scenario.
 *
 * @param scenario the scenario
 * @param held how many locks the tree held in this round of the path scenario; 0 in the others
 * @param measurements one per contender, in the order they ran
 */
public record ScenarioResults(Scenario scenario, int held, List<Measurement> measurements) {

    /** Copies the measurements. */
    public ScenarioResults {
        measurements = List.copyOf(measurements);
    }

    /**
     * The results of a scenario that runs once, without held locks.
     *
     * @param scenario the scenario
     * @param measurements one per contender, in the order they ran
     */
    public ScenarioResults(Scenario scenario, List<Measurement> measurements) {
        this(scenario, 0, measurements);
    }

    /**
     * The scenario's number, with the held locks of a path round, for the rows of tables that span scenarios.
     *
     * @return for example {@code 3} or {@code 7, 1,000 held}
     */
    public String label() {
        return label(scenario, held);
    }

    /**
     * The label of a scenario's round before it has results, for progress lines.
     *
     * @param scenario the scenario
     * @param held the locks held in its tree, or 0
     * @return what {@link #label()} will say
     */
    public static String label(Scenario scenario, int held) {
        return held == 0
                ? Integer.toString(scenario.number())
                : String.format(Locale.ROOT, "%d, %,d held", scenario.number(), held);
    }

    /**
     * One contender's measurement.
     *
     * @param kind the contender
     * @return its measurement, if it ran
     */
    public Optional<Measurement> of(ContenderKind kind) {
        return measurements.stream().filter(m -> m.kind() == kind).findFirst();
    }

    /**
     * The measurements of the locks other than distlock's own: a Redlock is distlock on more servers, compared with
     * single-node distlock, not a peer that distlock's targets are set against. The non-blocking contenders are left
     * out too: the targets are the blocking API's, and the non-blocking ones are compared in a section of their own; so
     * are the contenders of the other backends, which are not Redis locks.
     *
     * @return the peers' measurements
     */
    public List<Measurement> peers() {
        return measurements.stream()
                .filter(m -> m.kind().isLock()
                        && m.kind() != ContenderKind.DISTLOCK
                        && !m.kind().isJavaLockView()
                        && m.kind() != ContenderKind.DISTLOCK_OBSERVED
                        && m.kind() != ContenderKind.DISTLOCK_FAIR
                        && m.kind() != ContenderKind.DISTLOCK_LOCAL_HANDOVER
                        && !m.kind().isClassicPubSubVariant()
                        && !m.kind().isRedlock()
                        && !m.kind().isAsync()
                        && !m.kind().isOtherBackend())
                .toList();
    }
}
