package io.distlock.bench.report;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.Measurement;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.Trial;
import io.distlock.bench.contender.ContenderKind;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The non-blocking API beside the blocking one, in the same run: distlock's and Redisson's locks taken blocking, then
 * asynchronously and reactively, with each throughput over distlock's blocking and asynchronous ones, trial by trial.
 */
final class AsyncSection {

    /** The locks compared, blocking first, in the order of the rows. */
    private static final List<ContenderKind> COMPARED = List.of(
            ContenderKind.DISTLOCK,
            ContenderKind.DISTLOCK_ASYNC,
            ContenderKind.REDISSON,
            ContenderKind.REDISSON_ASYNC,
            ContenderKind.REDISSON_REACTIVE);

    private static final ToDoubleFunction<Trial> RATE = trial -> trial.result().perSecond();

    private final MarkdownText md;

    private AsyncSection(MarkdownText md) {
        this.md = md;
    }

    /**
     * Writes the section if any non-blocking contender ran.
     *
     * @param md where to write
     * @param results the run's results
     */
    static void write(MarkdownText md, BenchmarkResults results) {
        List<ScenarioResults> scenarios = List.of(Scenario.UNCONTENDED, Scenario.PARALLEL, Scenario.CONTENDED).stream()
                .map(results::of)
                .flatMap(Optional::stream)
                .filter(s -> s.measurements().stream().anyMatch(m -> m.kind().isAsync()))
                .toList();
        if (!scenarios.isEmpty()) {
            new AsyncSection(md).section(scenarios);
        }
    }

    private void section(List<ScenarioResults> scenarios) {
        md.line("## Non-blocking API: asynchronous and reactive locks beside the blocking ones");
        md.line("");
        md.line("A blocking contender runs the scenario's threads, each waiting for its lock; a non-blocking one keeps"
                + " as many acquisitions in flight as the scenario has threads, each started from the completion of"
                + " the one before it (critical section, release), with no thread waiting for any of them. Operations"
                + " are completed acquire + critical section + release cycles; the ratios pair each trial with the"
                + " other contender's trial of the same number.");
        md.line("");
        md.table(List.of("Scenario", "Contender", "API", "operations/s", "over distlock", "over distlock async"));
        for (ScenarioResults s : scenarios) {
            Optional<Measurement> blocking = s.of(ContenderKind.DISTLOCK);
            Optional<Measurement> async = s.of(ContenderKind.DISTLOCK_ASYNC);
            for (ContenderKind kind : COMPARED) {
                s.of(kind)
                        .ifPresent(m -> md.row(
                                Integer.toString(s.scenario().number()),
                                kind.label(),
                                kind.isAsync() ? "non-blocking" : "blocking",
                                Numbers.spread(m.perSecond(), Numbers::count),
                                ratio(m, blocking),
                                ratio(m, async)));
            }
        }
        md.line("");
    }

    private static String ratio(Measurement m, Optional<Measurement> reference) {
        return reference
                .map(r -> Numbers.spread(PairedRatio.of(m, r, RATE), Numbers::ratio))
                .orElse("-");
    }
}
