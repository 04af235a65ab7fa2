package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.BenchmarkSettings;
import io.distlock.bench.Environment;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.Topology;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the results say about where they ran and about contenders that could not run there. */
class MarkdownReportTest {

    @Test
    void aClusterRunNamesItsTargetAndTheCommandThatSelectsIt() {
        String markdown = render(Topology.CLUSTER, Map.of());

        assertThat(markdown)
                .contains("- Command: `" + RunCommand.FULL + " -Dbench.target=cluster -Dbench.scenarios=")
                .contains("- Target: **Redis Cluster**");
    }

    @Test
    void aStandaloneRunNamesNoTarget() {
        String markdown = render(Topology.STANDALONE, Map.of());

        assertThat(markdown)
                .contains("- Command: `" + RunCommand.FULL + " -Dbench.scenarios=")
                .contains("- Target: **standalone Redis**")
                .doesNotContain("bench.target");
    }

    @Test
    void aContenderThatCouldNotRunIsListedWithItsReasonAndGetsARowInEachOfItsScenarios() {
        String reason = "failed: RedisException: CROSSSLOT Keys in request don't hash to the same slot | more";

        String markdown = render(Topology.CLUSTER, Map.of(ContenderKind.REDISSON, reason));

        String escaped = "failed: RedisException: CROSSSLOT Keys in request don't hash to the same slot \\| more";
        assertThat(markdown)
                .contains("Could not run on this target")
                .contains("- **Redisson**: " + escaped)
                .contains("| Redisson | **could not run on this target**: " + escaped + " | - | - |\n")
                .contains("| Redisson | **could not run on this target**: " + escaped + " | - | - | - | - | - |\n");
    }

    private static String render(Topology topology, Map<ContenderKind, String> unavailable) {
        BenchmarkSettings settings = BenchmarkSettings.smoke(Path.of("target", "markdown-report-test"));
        Environment environment = new Environment(
                Instant.parse("2026-11-23T12:00:00Z"),
                "2 cores",
                "Java 17",
                "7.0.15",
                topology,
                "a throwaway Redis",
                Map.of("distlock", "distlock"),
                "load 0.1");
        List<ScenarioResults> scenarios = List.of(
                new ScenarioResults(Scenario.PARALLEL, List.of()),
                new ScenarioResults(Scenario.CONTENDED_PROCESSES, List.of()));
        return MarkdownReport.render(
                new BenchmarkResults(settings, environment, scenarios, unavailable, Duration.ofMinutes(1)),
                "results.png",
                "abc1234");
    }
}
