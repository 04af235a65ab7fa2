package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The results of one benchmark run.
 *
 * @param settings how it ran
 * @param environment where and with what it ran
 * @param scenarios the results of each scenario, in order
 * @param unavailable the contenders that were asked for but could not run on the target, with the reason
 * @param took how long the run took
 */
public record BenchmarkResults(
        BenchmarkSettings settings,
        Environment environment,
        List<ScenarioResults> scenarios,
        Map<ContenderKind, String> unavailable,
        Duration took) {

    /** Copies the scenarios and the unavailable contenders, keeping their order. */
    public BenchmarkResults {
        scenarios = List.copyOf(scenarios);
        unavailable = Collections.unmodifiableMap(new LinkedHashMap<>(unavailable));
    }

    /**
     * One scenario's results.
     *
     * @param scenario the scenario
     * @return its results, if it ran
     */
    public Optional<ScenarioResults> of(Scenario scenario) {
        return scenarios.stream().filter(s -> s.scenario() == scenario).findFirst();
    }

    /**
     * Every round of a scenario: one for a scenario that runs once, one per number of held locks for the path scenario.
     *
     * @param scenario the scenario
     * @return its rounds' results in the order they ran, empty if it did not run
     */
    public List<ScenarioResults> rounds(Scenario scenario) {
        return scenarios.stream().filter(s -> s.scenario() == scenario).toList();
    }

    /**
     * Evidence of two holders at once, anywhere in the run.
     *
     * @return the number of violations
     */
    public long violations() {
        return scenarios.stream()
                .flatMap(s -> s.measurements().stream())
                .mapToLong(Measurement::violations)
                .sum();
    }
}
