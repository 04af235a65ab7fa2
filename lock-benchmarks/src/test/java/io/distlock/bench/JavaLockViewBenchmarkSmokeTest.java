package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.contender.ContenderKind;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs distlock's {@code java.util.concurrent.locks.Lock} view in every way the benchmark holds it (one view shared by
 * all threads, one per thread locked with {@code lock()} or {@code lockInterruptibly()}, a new one per acquisition) beside distlock's own API, on one contended key in one JVM, for a
 * fraction of a second each (see {@link BenchmarkSettings#viewSmoke}), so that the build
 * notices when a way of holding the view breaks: every thread must get the lock, with no violations and no failures.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JavaLockViewBenchmarkSmokeTest {

    private static final Path OUTPUT = Path.of("target", "benchmark-smoke-views");

    @Test
    void everyWayOfHoldingTheViewLocksExclusively() throws Exception {
        BenchmarkSettings settings = BenchmarkSettings.viewSmoke(OUTPUT);
        BenchmarkResults results = SmokeRun.run(settings);
        BenchmarkMain.write(results);

        assertThat(results.unavailable()).isEmpty();
        assertThat(results.scenarios()).extracting(ScenarioResults::scenario).containsExactly(Scenario.CONTENDED);
        for (ScenarioResults scenario : results.scenarios()) {
            assertThat(scenario.measurements())
                    .extracting(Measurement::kind)
                    .containsExactly(
                            ContenderKind.DISTLOCK,
                            ContenderKind.DISTLOCK_JDK,
                            ContenderKind.DISTLOCK_JDK_THREAD,
                            ContenderKind.DISTLOCK_JDK_CALL,
                            ContenderKind.DISTLOCK_JDK_INTERRUPTIBLY);
            for (Measurement measurement : scenario.measurements()) {
                String what = "scenario " + scenario.scenario().number() + ", "
                        + measurement.kind().label();
                assertThat(measurement.violations()).as(what + ": violations").isZero();
                assertThat(measurement.failures())
                        .as(what + ": failures, first: " + measurement.firstFailure())
                        .isZero();
                assertThat(measurement.trials())
                        .as(what)
                        .allSatisfy(trial -> assertThat(trial.result().perThread())
                                .as(what + ": every thread got the lock")
                                .allSatisfy(count -> assertThat(count).isPositive()));
            }
        }
    }
}
