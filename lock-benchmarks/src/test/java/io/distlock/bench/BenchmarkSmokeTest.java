package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.contender.ContenderKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs every blocking contender (but the 5-node Redlock, see {@link BenchmarkSettings#smoke}) in every scenario but
 * the path scenario, which {@link PathBenchmarkSmokeTest} runs (the non-blocking ones run in {@link
 * AsyncBenchmarkSmokeTest}), for a fraction of a second, so that the build notices when the benchmark
 * breaks: figures must come out, with no violations and no failures. The full run is the {@code benchmarks} profile.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@Tag("full") // a minute of worker JVMs; the smaller smoke runs of the other contenders stay in the default build
class BenchmarkSmokeTest {

    private static final Path OUTPUT = Path.of("target", "benchmark-smoke");

    @Test
    void everyContenderRunsEveryScenarioCorrectlyAndTheResultsAreWritten() throws Exception {
        BenchmarkSettings settings = BenchmarkSettings.smoke(OUTPUT);
        BenchmarkResults results = SmokeRun.run(settings);
        String markdown = BenchmarkMain.write(results);

        assertThat(results.scenarios())
                .extracting(ScenarioResults::scenario)
                .containsExactlyElementsOf(settings.scenarios());
        for (ScenarioResults scenario : results.scenarios()) {
            ContenderKind[] expected = settings.contenders().stream()
                    .filter(scenario.scenario()::includes)
                    .toArray(ContenderKind[]::new);
            assertThat(scenario.measurements()).extracting(Measurement::kind).containsExactly(expected);
            for (Measurement measurement : scenario.measurements()) {
                String what = "scenario " + scenario.scenario().number() + ", "
                        + measurement.kind().label();
                assertThat(measurement.violations()).as(what + ": violations").isZero();
                assertThat(measurement.failures())
                        .as(what + ": failures, first: " + measurement.firstFailure())
                        .isZero();
                assertThat(measurement.trials()).as(what).allSatisfy(trial -> {
                    assertThat(trial.result().acquisitions()).isPositive();
                    assertThat(trial.result().perSecond()).isPositive();
                    assertThat(trial.commands().lockWorkTotal()).isPositive();
                });
                if (scenario.scenario() == Scenario.READ_HEAVY_PROCESSES
                        && measurement.kind().isReadWrite()) {
                    assertThat(measurement.mostReadersInside().max())
                            .as(what + ": readers seen inside")
                            .isPositive();
                }
                if (scenario.scenario().processes(settings) > 1) {
                    assertThat(measurement.perProcess())
                            .as(what + ": one entry per process")
                            .hasSize(settings.processes())
                            .allSatisfy(process ->
                                    assertThat(process.sharePercent().min()).isPositive());
                    assertThat(measurement.trials())
                            .as(what)
                            .allSatisfy(trial -> assertThat(trial.result().processes().stream()
                                            .mapToLong(share -> share.acquisitions())
                                            .sum())
                                    .isEqualTo(trial.result().acquisitions()));
                }
                if (scenario.scenario().contended()) {
                    assertThat(measurement.probe()).as(what + ": probe").isNotNull();
                    assertThat(measurement.probe().commands().topLevelTotal())
                            .as(what + ": probe")
                            .isPositive();
                }
            }
        }
        assertThat(markdown)
                .contains(
                        "## Targets",
                        "## 5. Read-heavy",
                        "| distlock read-write |",
                        "## 6. Efficiency",
                        "| distlock |",
                        "p99 max/min",
                        "S4: no process's p99 wait");
        assertThat(Files.size(OUTPUT.resolve(BenchmarkMain.MARKDOWN_FILE))).isPositive();
        assertThat(Files.size(OUTPUT.resolve(BenchmarkMain.CHART_FILE))).isPositive();
    }
}
