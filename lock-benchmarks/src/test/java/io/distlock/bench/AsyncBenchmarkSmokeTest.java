package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.contender.ContenderKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the non-blocking contenders (distlock's {@code tryAcquireAsync}, Redisson's async and reactive locks) in the
 * scenarios they run in, for a fraction of a second each (see {@link BenchmarkSettings#asyncSmoke}), so that the build
 * notices when their driver breaks: every chain of acquisitions must get the lock, with no violations and no failures,
 * and the section comparing them must come out.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AsyncBenchmarkSmokeTest {

    private static final Path OUTPUT = Path.of("target", "benchmark-smoke-async");

    @Test
    void everyNonBlockingContenderKeepsItsAcquisitionsInFlightCorrectlyAndTheResultsAreWritten() throws Exception {
        BenchmarkSettings settings = BenchmarkSettings.asyncSmoke(OUTPUT);
        BenchmarkResults results = SmokeRun.run(settings);
        String markdown = BenchmarkMain.write(results);

        assertThat(results.scenarios())
                .extracting(ScenarioResults::scenario)
                .containsExactly(Scenario.UNCONTENDED, Scenario.PARALLEL, Scenario.CONTENDED);
        for (ScenarioResults scenario : results.scenarios()) {
            assertThat(scenario.measurements())
                    .extracting(Measurement::kind)
                    .containsExactly(
                            ContenderKind.DISTLOCK_ASYNC,
                            ContenderKind.REDISSON_ASYNC,
                            ContenderKind.REDISSON_REACTIVE);
            int chains = scenario.scenario()
                    .workload(settings, "any", 0, settings.trial())
                    .threads();
            for (Measurement measurement : scenario.measurements()) {
                String what = "scenario " + scenario.scenario().number() + ", "
                        + measurement.kind().label();
                assertThat(measurement.violations()).as(what + ": violations").isZero();
                assertThat(measurement.failures())
                        .as(what + ": failures, first: " + measurement.firstFailure())
                        .isZero();
                assertThat(measurement.trials()).as(what).allSatisfy(trial -> {
                    assertThat(trial.result().acquisitions()).isPositive();
                    assertThat(trial.result().perThread())
                            .as(what + ": every chain got the lock")
                            .hasSize(chains)
                            .allSatisfy(count -> assertThat(count).isPositive());
                    assertThat(trial.commands().lockWorkTotal()).isPositive();
                });
            }
        }
        assertThat(markdown)
                .contains(
                        "## Non-blocking API",
                        "| 3 | distlock async | non-blocking |",
                        "| 3 | Redisson async | non-blocking |",
                        "| 3 | Redisson reactive | non-blocking |");
        assertThat(Files.size(OUTPUT.resolve(BenchmarkMain.MARKDOWN_FILE))).isPositive();
    }
}
