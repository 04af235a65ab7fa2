package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.BenchmarkSettings;
import io.distlock.bench.Environment;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.contender.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chart of a run whose scenarios have no measured contender. */
class ResultsChartTest {

    @Test
    void scenariosWithoutAnyMeasuredContenderDrawNoPanelInsteadOfFailingTheRun(@TempDir Path directory) {
        BenchmarkSettings settings = BenchmarkSettings.smoke(directory);
        Environment environment = new Environment(
                Instant.parse("2026-11-26T18:00:00Z"),
                "2 cores",
                "Java 17",
                "7.0.15",
                Topology.STANDALONE,
                "a throwaway Redis",
                Map.of(),
                "load 0.1");
        List<ScenarioResults> scenarios = List.of(
                new ScenarioResults(Scenario.UNCONTENDED, List.of()),
                new ScenarioResults(Scenario.CONTENDED, List.of()),
                new ScenarioResults(Scenario.PATH_AMONG_HELD, 10, List.of()),
                new ScenarioResults(Scenario.PATH_AMONG_HELD, 100, List.of()));
        BenchmarkResults results =
                new BenchmarkResults(settings, environment, scenarios, Map.of(), Duration.ofMinutes(1));
        Path file = directory.resolve("results.png");

        boolean[] drawn = new boolean[1];
        assertThatCode(() -> drawn[0] = ResultsChart.write(results, file)).doesNotThrowAnyException();
        assertThat(file)
                .satisfiesAnyOf(
                        png -> assertThat(Files.exists(png)).isFalse(),
                        png -> assertThat(png).isNotEmptyFile());
        assertThat(Files.exists(file))
                .as("a chart exactly where write says it drew one")
                .isEqualTo(drawn[0]);
    }
}
