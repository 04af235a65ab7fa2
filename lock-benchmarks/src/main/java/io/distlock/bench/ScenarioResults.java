package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import java.util.List;
import java.util.Optional;

/**
 * The measurements of every contender in one scenario.
 *
 * @param scenario the scenario
 * @param measurements one per contender, in the order they ran
 */
public record ScenarioResults(Scenario scenario, List<Measurement> measurements) {

    /** Copies the measurements. */
    public ScenarioResults {
        measurements = List.copyOf(measurements);
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
     * single-node distlock, not a peer that distlock's targets are set against.
     *
     * @return the peers' measurements
     */
    public List<Measurement> peers() {
        return measurements.stream()
                .filter(m -> m.kind().isLock()
                        && m.kind() != ContenderKind.DISTLOCK
                        && m.kind() != ContenderKind.DISTLOCK_FAIR
                        && !m.kind().isRedlock())
                .toList();
    }
}
