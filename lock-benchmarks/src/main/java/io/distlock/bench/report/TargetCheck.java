package io.distlock.bench.report;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.Measurement;
import io.distlock.bench.Probe;
import io.distlock.bench.ProcessFairness;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.Trial;
import io.distlock.bench.contender.ContenderKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Compares distlock's median figures with the project's targets: close to the two-round-trip floor when uncontended,
 * at least as fast as the best peer, no worse tail latency, no more Redis commands, and far ahead of the seeds' lock.
 *
 * <p>Each verdict also counts the trials that meet the target on their own, pairing every trial of distlock with the
 * other contender's trial of the same number. Paired trials ran next to each other, so they saw the same load on the
 * machine; a target met in only some of them is within the noise of the run.
 */
public final class TargetCheck {

    /** distlock may cost at most this much more than one SET plus one DEL. */
    static final double BASELINE_FACTOR = 1.2;

    /** "Far ahead" of the seeds' sleep-polling lock, read as at least this many times its throughput. */
    static final double FAR_AHEAD_FACTOR = 2.0;

    /** Across processes, no process's p99 wait may be more than this many times another's. */
    static final double PROCESS_P99_RATIO = 2.0;

    /** Across processes, the p99 wait of all acquisitions together may be at most this, in milliseconds. */
    static final double PROCESSES_P99_MILLIS = 30;

    private static final ToDoubleFunction<Trial> UNCONTENDED_P50 =
            trial -> trial.result().cycleNanos().getValueAtPercentile(50);
    private static final ToDoubleFunction<Trial> RATE = trial -> trial.result().perSecond();
    private static final ToDoubleFunction<Trial> ACQUIRE_P99 =
            trial -> trial.result().acquireNanos().getValueAtPercentile(99);

    private TargetCheck() {}

    /**
     * Evaluates every target whose contenders ran.
     *
     * @param results the run's results
     * @return one verdict per target
     */
    public static List<Verdict> evaluate(BenchmarkResults results) {
        List<Verdict> verdicts = new ArrayList<>();
        results.of(Scenario.UNCONTENDED).ifPresent(s -> uncontended(s, verdicts));
        results.of(Scenario.PARALLEL).ifPresent(s -> distlock(s).ifPresent(d -> atLeastBestRate(s, d, verdicts)));
        for (Scenario scenario : List.of(Scenario.CONTENDED, Scenario.CONTENDED_PROCESSES)) {
            results.of(scenario).ifPresent(s -> contended(s, verdicts));
        }
        results.of(Scenario.CONTENDED_PROCESSES).ifPresent(s -> betweenProcesses(s, verdicts));
        for (Scenario scenario : List.of(Scenario.CONTENDED, Scenario.CONTENDED_PROCESSES)) {
            results.of(scenario).ifPresent(s -> commands(s, verdicts));
        }
        return verdicts;
    }

    private static void uncontended(ScenarioResults s, List<Verdict> verdicts) {
        Optional<Measurement> found = distlock(s);
        if (found.isEmpty()) {
            return;
        }
        Measurement distlock = found.get();
        double p50 = distlock.cycleMicros(50).median();
        s.of(ContenderKind.BASELINE).ifPresent(baseline -> {
            double floor = baseline.cycleMicros(50).median();
            double meanRatio = distlock.cycleMeanMicros().median()
                    / baseline.cycleMeanMicros().median();
            double p99Ratio =
                    distlock.cycleMicros(99).median() / baseline.cycleMicros(99).median();
            verdicts.add(new Verdict(
                    "S1: lock+unlock within " + BASELINE_FACTOR + "x of SET+DEL (p50)",
                    Numbers.micros(p50) + " µs vs " + Numbers.micros(floor) + " µs = " + Numbers.ratio(p50 / floor)
                            + " (mean " + Numbers.ratio(meanRatio) + ", p99 " + Numbers.ratio(p99Ratio) + ")",
                    p50 / floor <= BASELINE_FACTOR,
                    paired(
                            distlock,
                            baseline,
                            (d, b) -> UNCONTENDED_P50.applyAsDouble(d)
                                    <= BASELINE_FACTOR * UNCONTENDED_P50.applyAsDouble(b))));
        });
        best(s, m -> m.cycleMicros(50).median(), false)
                .ifPresent(peer -> verdicts.add(new Verdict(
                        "S1: not slower than any peer (p50)",
                        Numbers.micros(p50) + " µs vs fastest peer "
                                + peer.kind().label() + " "
                                + Numbers.micros(peer.cycleMicros(50).median()) + " µs = "
                                + Numbers.ratio(p50 / peer.cycleMicros(50).median()),
                        p50 <= peer.cycleMicros(50).median(),
                        paired(distlock, peer, atMost(UNCONTENDED_P50)))));
    }

    private static void contended(ScenarioResults s, List<Verdict> verdicts) {
        Optional<Measurement> found = distlock(s);
        if (found.isEmpty()) {
            return;
        }
        Measurement distlock = found.get();
        atLeastBestRate(s, distlock, verdicts);
        double p99 = distlock.acquireMillis(99).median();
        best(s, m -> m.acquireMillis(99).median(), false)
                .ifPresent(peer -> verdicts.add(new Verdict(
                        label(s) + "p99 acquire latency no worse than the best peer's",
                        Numbers.millis(p99) + " ms vs " + peer.kind().label() + " "
                                + Numbers.millis(peer.acquireMillis(99).median()) + " ms = "
                                + Numbers.ratio(p99 / peer.acquireMillis(99).median()),
                        p99 <= peer.acquireMillis(99).median(),
                        paired(distlock, peer, atMost(ACQUIRE_P99)))));
        s.of(ContenderKind.SEEDS).ifPresent(seeds -> {
            double ratio = distlock.perSecond().median() / seeds.perSecond().median();
            verdicts.add(new Verdict(
                    label(s) + "far ahead of the seeds' lock (at least " + Numbers.ratio(FAR_AHEAD_FACTOR)
                            + " its throughput)",
                    Numbers.count(distlock.perSecond().median()) + "/s vs "
                            + Numbers.count(seeds.perSecond().median()) + "/s = " + Numbers.ratio(ratio)
                            + "; p99 " + Numbers.millis(p99) + " ms vs "
                            + Numbers.millis(seeds.acquireMillis(99).median()) + " ms",
                    ratio >= FAR_AHEAD_FACTOR,
                    paired(
                            distlock,
                            seeds,
                            (d, p) -> RATE.applyAsDouble(d) >= FAR_AHEAD_FACTOR * RATE.applyAsDouble(p))));
        });
    }

    private static void betweenProcesses(ScenarioResults s, List<Verdict> verdicts) {
        Optional<Measurement> found = distlock(s);
        if (found.isEmpty() || found.get().perProcess().isEmpty()) {
            return;
        }
        Measurement distlock = found.get();
        double ratio = distlock.processP99Ratio().median();
        verdicts.add(new Verdict(
                label(s) + "no process's p99 wait more than " + Numbers.ratio(PROCESS_P99_RATIO) + " another's",
                "highest over lowest process p99: " + Numbers.ratio(ratio),
                ratio <= PROCESS_P99_RATIO,
                within(distlock, trial -> ProcessFairness.p99Ratio(trial) <= PROCESS_P99_RATIO)));
        double p99 = distlock.acquireMillis(99).median();
        verdicts.add(new Verdict(
                label(s) + "p99 wait of all processes together at most " + Numbers.millis(PROCESSES_P99_MILLIS) + " ms",
                Numbers.millis(p99) + " ms",
                p99 <= PROCESSES_P99_MILLIS,
                within(distlock, trial -> ACQUIRE_P99.applyAsDouble(trial) / 1e6 <= PROCESSES_P99_MILLIS)));
    }

    /** Counts distlock's trials that meet a target of its own, with no peer to pair with. */
    private static String within(Measurement distlock, Predicate<Trial> met) {
        long metIn = distlock.trials().stream().filter(met).count();
        return metIn + "/" + distlock.trials().size();
    }

    private static void commands(ScenarioResults s, List<Verdict> verdicts) {
        Optional<Measurement> found = distlock(s);
        if (found.isEmpty()) {
            return;
        }
        Measurement distlock = found.get();
        String scenario = "S5 (scenario " + s.scenario().number() + "): ";
        double calls = distlock.commandsPerAcquisition().median();
        best(s, m -> m.commandsPerAcquisition().median(), false)
                .ifPresent(peer -> verdicts.add(new Verdict(
                        scenario + "no more Redis calls per acquisition than the best peer",
                        Numbers.perAcquisition(calls) + " vs " + peer.kind().label() + " "
                                + Numbers.perAcquisition(
                                        peer.commandsPerAcquisition().median())
                                + " (all calls, including those made by scripts)",
                        asShown(calls) <= asShown(peer.commandsPerAcquisition().median()),
                        paired(
                                distlock,
                                peer,
                                (d, p) ->
                                        asShown(d.commandsPerAcquisition()) <= asShown(p.commandsPerAcquisition())))));
        Probe probe = distlock.probe();
        if (probe == null) {
            return;
        }
        double requests = probe.topLevelPerAcquisition();
        s.peers().stream()
                .filter(peer -> peer.probe() != null)
                .min(Comparator.comparingDouble(peer -> peer.probe().topLevelPerAcquisition()))
                .ifPresent(peer -> verdicts.add(new Verdict(
                        scenario + "no more top-level commands (requests) per acquisition than the best peer",
                        Numbers.perAcquisition(requests) + " vs " + peer.kind().label() + " "
                                + Numbers.perAcquisition(peer.probe().topLevelPerAcquisition()) + " (MONITOR probe)",
                        asShown(requests) <= asShown(peer.probe().topLevelPerAcquisition()),
                        "-")));
    }

    private static void atLeastBestRate(ScenarioResults s, Measurement distlock, List<Verdict> verdicts) {
        double rate = distlock.perSecond().median();
        best(s, m -> m.perSecond().median(), true)
                .ifPresent(peer -> verdicts.add(new Verdict(
                        label(s) + "throughput at least the best peer's",
                        Numbers.count(rate) + "/s vs " + peer.kind().label() + " "
                                + Numbers.count(peer.perSecond().median()) + "/s = "
                                + Numbers.ratio(rate / peer.perSecond().median()),
                        rate >= peer.perSecond().median(),
                        paired(distlock, peer, (d, p) -> RATE.applyAsDouble(d) >= RATE.applyAsDouble(p)))));
    }

    /** Counts the trials, paired by number, in which distlock meets the target against the other contender. */
    private static String paired(Measurement distlock, Measurement other, BiPredicate<Trial, Trial> met) {
        int pairs = Math.min(distlock.trials().size(), other.trials().size());
        int metIn = 0;
        for (int i = 0; i < pairs; i++) {
            if (met.test(distlock.trials().get(i), other.trials().get(i))) {
                metIn++;
            }
        }
        return metIn + "/" + pairs;
    }

    private static BiPredicate<Trial, Trial> atMost(ToDoubleFunction<Trial> figure) {
        return (distlock, other) -> figure.applyAsDouble(distlock) <= figure.applyAsDouble(other);
    }

    /** A count per acquisition as the results show it, to two decimals, so that equal-looking counts tie. */
    private static long asShown(double perAcquisition) {
        return Math.round(perAcquisition * 100);
    }

    private static Optional<Measurement> distlock(ScenarioResults s) {
        return s.of(ContenderKind.DISTLOCK);
    }

    /** The peer with the highest (or lowest) median figure. */
    private static Optional<Measurement> best(
            ScenarioResults s, ToDoubleFunction<Measurement> figure, boolean highest) {
        Comparator<Measurement> order = Comparator.comparingDouble(figure);
        return highest ? s.peers().stream().max(order) : s.peers().stream().min(order);
    }

    private static String label(ScenarioResults s) {
        return "S" + s.scenario().number() + ": ";
    }
}
