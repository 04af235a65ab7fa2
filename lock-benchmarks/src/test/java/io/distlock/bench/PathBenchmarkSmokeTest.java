package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.contender.ContenderKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the path scenario with both path contenders among 10 and then 100 held locks, for a fraction of a second each
 * (see {@link BenchmarkSettings#pathSmoke}), so that the build notices when it breaks: every measured acquisition must
 * succeed, and the table and chart must come out. The full run is the {@code benchmarks} profile with {@code
 * -Dbench.scenarios=7}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class PathBenchmarkSmokeTest {

    private static final Path OUTPUT = Path.of("target", "benchmark-smoke-path");

    @Test
    void bothPathLocksTakeFreshPathsAmongHeldLocksAndTheResultsAreWritten() throws Exception {
        BenchmarkSettings settings = BenchmarkSettings.pathSmoke(OUTPUT);
        BenchmarkResults results = SmokeRun.run(settings);
        String markdown = BenchmarkMain.write(results);

        assertThat(results.rounds(Scenario.PATH_AMONG_HELD))
                .extracting(ScenarioResults::held)
                .containsExactlyElementsOf(settings.held());
        for (ScenarioResults round : results.scenarios()) {
            assertThat(round.measurements())
                    .extracting(Measurement::kind)
                    .containsExactly(ContenderKind.DISTLOCK_PATH, ContenderKind.SEED_FOLDER);
            for (Measurement measurement : round.measurements()) {
                String what = round.label() + ", " + measurement.kind().label();
                assertThat(measurement.failures())
                        .as(what + ": failures, first: " + measurement.firstFailure())
                        .isZero();
                assertThat(measurement.timeouts())
                        .as(what + ": refused acquisitions")
                        .isZero();
                assertThat(measurement.trials()).as(what).allSatisfy(trial -> {
                    assertThat(trial.result().acquisitions()).isPositive();
                    assertThat(trial.commands().lockWorkTotal()).isPositive();
                });
            }
        }
        assertThat(markdown)
                .contains(
                        "## 7. Path locks",
                        "| Locks held | distlock path lock p50 µs |",
                        "seed / distlock p50",
                        "| 100 | ",
                        " acquisitions in the trials, 0 were refused, and 0 failed in any run.");
        assertThat(Files.size(OUTPUT.resolve(BenchmarkMain.MARKDOWN_FILE))).isPositive();
        assertThat(Files.size(OUTPUT.resolve(BenchmarkMain.CHART_FILE))).isPositive();
    }
}
