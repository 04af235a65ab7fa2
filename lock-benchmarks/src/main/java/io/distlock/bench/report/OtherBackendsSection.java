package io.distlock.bench.report;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.Measurement;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.Spread;
import io.distlock.bench.Trial;
import io.distlock.bench.contender.ContenderKind;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The backends other than Redis beside distlock on Redis, in the same run: distlock's {@code StoreLock} on PostgreSQL
 * and on ZooKeeper, and the peers on the same servers, with each throughput over distlock's on Redis, trial by trial.
 */
final class OtherBackendsSection {

    private static final ToDoubleFunction<Trial> RATE = trial -> trial.result().perSecond();

    private final MarkdownText md;

    private OtherBackendsSection(MarkdownText md) {
        this.md = md;
    }

    /**
     * Writes the section if any contender of another backend ran.
     *
     * @param md where to write
     * @param results the run's results
     */
    static void write(MarkdownText md, BenchmarkResults results) {
        List<ScenarioResults> scenarios = List.of(Scenario.UNCONTENDED, Scenario.CONTENDED).stream()
                .map(results::of)
                .flatMap(Optional::stream)
                .filter(s -> s.measurements().stream().anyMatch(m -> m.kind().isOtherBackend()))
                .toList();
        if (!scenarios.isEmpty()) {
            new OtherBackendsSection(md).section(scenarios);
        }
    }

    private void section(List<ScenarioResults> scenarios) {
        md.line("## Other backends: PostgreSQL and ZooKeeper beside Redis");
        md.line("");
        md.line("distlock's `StoreLock` on PostgreSQL (`JdbcLeaseStore`) and on ZooKeeper (`ZooKeeperLeaseStore`), and"
                + " the peers on the same servers, against distlock on Redis in the same run. Each server is the run's"
                + " own, on this machine, like the Redis target. *Over distlock* pairs each trial with distlock's"
                + " (on Redis) of the same number. Acquire latency is from calling acquire until it returned the lock;"
                + " in scenario 1 every acquisition is of a fresh key and succeeds at once. *Client CPU* is the worker"
                + " JVMs' (client library, driver and pool, benchmark threads, JIT and GC); the servers' own CPU is not"
                + " measured.");
        md.line("");
        md.table(List.of(
                "Scenario",
                "Contender",
                "Store",
                "operations/s",
                "over distlock",
                "acquire p50 µs",
                "acquire p99 µs",
                "client CPU µs / acq",
                "timeouts"));
        for (ScenarioResults s : scenarios) {
            Optional<Measurement> distlock = s.of(ContenderKind.DISTLOCK);
            for (ContenderKind kind : compared()) {
                s.of(kind)
                        .ifPresent(m -> md.row(
                                Integer.toString(s.scenario().number()),
                                kind.label(),
                                kind.store().name(),
                                Numbers.spread(m.perSecond(), Numbers::count),
                                distlock.map(d -> Numbers.spread(PairedRatio.of(m, d, RATE), Numbers::ratio))
                                        .orElse("-"),
                                Numbers.spread(Spread.of(m.trials(), PairedRatio.acquireMicros(50)), Numbers::micros),
                                Numbers.spread(Spread.of(m.trials(), PairedRatio.acquireMicros(99)), Numbers::micros),
                                Numbers.spread(m.clientCpuMicros(), Numbers::micros),
                                Long.toString(m.timeouts())));
            }
        }
        md.line("");
    }

    /** distlock on Redis first, as the reference, then the other backends' contenders. */
    private static List<ContenderKind> compared() {
        return Arrays.stream(ContenderKind.values())
                .filter(kind -> kind == ContenderKind.DISTLOCK || kind.isOtherBackend())
                .toList();
    }
}
