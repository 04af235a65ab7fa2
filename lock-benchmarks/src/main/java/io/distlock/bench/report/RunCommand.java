package io.distlock.bench.report;

import io.distlock.bench.BenchmarkSettings;
import io.distlock.bench.Scenario;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.Topology;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command that repeats a run: the full benchmark's command, with the options of every setting that differed from
 * the full run's, so that a partial run's report does not claim to be a full one.
 */
final class RunCommand {

    /** The one command that runs the full benchmark, as lock-benchmarks/README.md documents it. */
    static final String FULL = "./mvnw -B -pl lock-benchmarks -am verify -Pbenchmarks -Dmaven.test.skip=true";

    private RunCommand() {}

    /**
     * The command of a run.
     *
     * @param settings what the run selected
     * @param target where it ran
     * @return the full command with the options that select the same target, scenarios, contenders and trials
     */
    static String of(BenchmarkSettings settings, Topology target) {
        StringBuilder command = new StringBuilder(FULL);
        if (target == Topology.CLUSTER) {
            command.append(" -Dbench.target=").append(target.id());
        }
        if (!settings.scenarios().equals(List.of(Scenario.values()))) {
            command.append(" -Dbench.scenarios=")
                    .append(settings.scenarios().stream()
                            .map(scenario -> Integer.toString(scenario.number()))
                            .collect(Collectors.joining(",")));
        }
        if (!settings.contenders().equals(BenchmarkSettings.defaultContenders())) {
            command.append(" -Dbench.contenders=")
                    .append(settings.contenders().stream()
                            .map(ContenderKind::id)
                            .collect(Collectors.joining(",")));
        }
        if (settings.trials() != BenchmarkSettings.DEFAULT_TRIALS) {
            command.append(" -Dbench.trials=").append(settings.trials());
        }
        return command.toString();
    }
}
