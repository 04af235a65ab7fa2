package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.BenchmarkSettings;
import io.distlock.bench.Scenario;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command a report prints repeats the run it reports, no more and no less. */
class RunCommandTest {

    private static final BenchmarkSettings FULL_RUN = BenchmarkSettings.fromSystemProperties();

    @Test
    void theFullRunIsTheDocumentedCommandAlone() {
        assertThat(RunCommand.of(FULL_RUN, Topology.STANDALONE)).isEqualTo(RunCommand.FULL);
    }

    @Test
    void aPartialRunNamesItsScenariosContendersAndTrials() {
        BenchmarkSettings partial = new BenchmarkSettings(
                6,
                FULL_RUN.warmup(),
                FULL_RUN.warmupLimit(),
                FULL_RUN.trial(),
                FULL_RUN.probe(),
                FULL_RUN.parallelThreads(),
                FULL_RUN.contendedThreads(),
                FULL_RUN.processes(),
                FULL_RUN.threadsPerProcess(),
                FULL_RUN.lease(),
                FULL_RUN.maxWait(),
                FULL_RUN.held(),
                List.of(Scenario.CONTENDED, Scenario.CONTENDED_PROCESSES),
                List.of(ContenderKind.DISTLOCK, ContenderKind.REDISSON),
                null,
                Topology.CLUSTER,
                FULL_RUN.workerJvmArgs(),
                Path.of("target"));

        assertThat(RunCommand.of(partial, Topology.CLUSTER))
                .isEqualTo(RunCommand.FULL
                        + " -Dbench.target=cluster -Dbench.scenarios=3,4 -Dbench.contenders=distlock,redisson"
                        + " -Dbench.trials=6");
    }
}
