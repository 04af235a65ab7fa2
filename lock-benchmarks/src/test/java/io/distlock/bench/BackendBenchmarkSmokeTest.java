package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.distlock.bench.contender.ContenderKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the contenders of the other backends (distlock's {@code StoreLock} and the peers on the run's own PostgreSQL and
 * ZooKeeper) with distlock on Redis, in the scenarios they run in, for a fraction of a second each (see {@link
 * BenchmarkSettings#backendSmoke}), so that the build notices when their servers, their workers or their locks break:
 * every thread must get the lock, with no violations and no failures, and the section comparing them must come out.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BackendBenchmarkSmokeTest {

    private static final Path OUTPUT = Path.of("target", "benchmark-smoke-backends");

    @Test
    void everyOtherBackendLocksExclusivelyBesideRedisAndTheResultsAreWritten() throws Exception {
        BenchmarkSettings settings = BenchmarkSettings.backendSmoke(OUTPUT);
        BenchmarkResults results = SmokeRun.run(settings);
        String markdown = BenchmarkMain.write(results);

        assertThat(results.unavailable()).isEmpty();
        assertThat(results.scenarios())
                .extracting(ScenarioResults::scenario)
                .containsExactly(Scenario.UNCONTENDED, Scenario.CONTENDED);
        for (ScenarioResults scenario : results.scenarios()) {
            assertThat(scenario.measurements())
                    .extracting(Measurement::kind)
                    .containsExactly(
                            ContenderKind.DISTLOCK,
                            ContenderKind.DISTLOCK_JDBC,
                            ContenderKind.SI_JDBC,
                            ContenderKind.DISTLOCK_ZOOKEEPER,
                            ContenderKind.CURATOR_MUTEX,
                            ContenderKind.DISTLOCK_JDBC_FAIR);
            int threads = scenario.scenario()
                    .workload(settings, "any", 0, settings.trial())
                    .threads();
            for (Measurement measurement : scenario.measurements()) {
                String what = "scenario " + scenario.scenario().number() + ", "
                        + measurement.kind().label();
                assertThat(measurement.violations()).as(what + ": violations").isZero();
                assertThat(measurement.failures())
                        .as(what + ": failures, first: " + measurement.firstFailure())
                        .isZero();
                assertThat(measurement.timeouts()).as(what + ": timeouts").isZero();
                assertThat(measurement.trials())
                        .as(what)
                        .allSatisfy(trial -> assertThat(trial.result().perThread())
                                .as(what + ": every thread got the lock")
                                .hasSize(threads)
                                .allSatisfy(count -> assertThat(count).isPositive()));
            }
        }
        assertThat(markdown)
                .contains(
                        "## Other backends: PostgreSQL and ZooKeeper beside Redis",
                        "| 1 | distlock JDBC | POSTGRESQL |",
                        "| 3 | SI JDBC | POSTGRESQL |",
                        "| 3 | distlock ZooKeeper | ZOOKEEPER |",
                        "| 3 | Curator mutex | ZOOKEEPER |");
        assertThat(Files.size(OUTPUT.resolve(BenchmarkMain.MARKDOWN_FILE))).isPositive();
        theJsonHoldsEveryTrialOfEveryContender(results);
    }

    /** results.json, from which the documentation's tables are generated, has what the Markdown was written from. */
    private static void theJsonHoldsEveryTrialOfEveryContender(BenchmarkResults results) throws Exception {
        JsonNode json = new ObjectMapper()
                .readTree(OUTPUT.resolve(BenchmarkMain.JSON_FILE).toFile());
        assertThat(json.path("commit").asText()).isNotBlank();
        assertThat(json.path("scenarios")).hasSize(results.scenarios().size());
        for (int s = 0; s < results.scenarios().size(); s++) {
            ScenarioResults scenario = results.scenarios().get(s);
            JsonNode written = json.path("scenarios").get(s);
            assertThat(written.path("number").asInt())
                    .isEqualTo(scenario.scenario().number());
            for (int c = 0; c < scenario.measurements().size(); c++) {
                Measurement measurement = scenario.measurements().get(c);
                JsonNode contender = written.path("contenders").get(c);
                assertThat(contender.path("id").asText())
                        .isEqualTo(measurement.kind().id());
                List<Double> perSecond = new ArrayList<>();
                contender.path("trials").path("perSecond").forEach(value -> perSecond.add(value.asDouble()));
                assertThat(perSecond)
                        .as(
                                "scenario %d, %s: acquisitions per second of each trial",
                                scenario.scenario().number(), measurement.kind().label())
                        .containsExactlyElementsOf(measurement.trials().stream()
                                .map(trial -> trial.result().perSecond())
                                .toList());
            }
        }
    }
}
