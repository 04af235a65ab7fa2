package io.distlock.bench.report;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.BenchmarkSettings;
import io.distlock.bench.Environment;
import io.distlock.bench.Measurement;
import io.distlock.bench.Probe;
import io.distlock.bench.ProcessFairness;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.Topology;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Writes the results as Markdown: the run's circumstances, the targets, then one table per scenario. */
public final class MarkdownReport {

    /** The one command that runs the full benchmark, as lock-benchmarks/README.md documents it. */
    public static final String COMMAND = "./mvnw -B -pl lock-benchmarks -am verify -Pbenchmarks -Dmaven.test.skip=true";

    /** What the command adds to run on a Redis Cluster. */
    static final String CLUSTER_OPTION = " -Dbench.target=" + Topology.CLUSTER.id();

    /** The scenarios whose threads wait for each other, and so whose Redis commands per acquisition tell something. */
    private static final List<Scenario> CONTENDED_SCENARIOS =
            List.of(Scenario.CONTENDED, Scenario.CONTENDED_PROCESSES, Scenario.READ_HEAVY_PROCESSES);

    private final BenchmarkResults results;
    private final StringBuilder out = new StringBuilder();
    /** The columns of the table being written, for rows that fill only some of them. */
    private int tableColumns;

    private MarkdownReport(BenchmarkResults results) {
        this.results = results;
    }

    /**
     * Renders the results.
     *
     * @param results the run's results
     * @param chartFile the chart's file name, next to the Markdown file
     * @return the Markdown text
     */
    public static String render(BenchmarkResults results, String chartFile) {
        return new MarkdownReport(results).document(chartFile);
    }

    private String document(String chartFile) {
        Environment env = results.environment();
        BenchmarkSettings s = results.settings();
        line("# distlock benchmark results");
        line("");
        line("- Date: " + DateTimeFormatter.ISO_INSTANT.format(env.date().truncatedTo(ChronoUnit.SECONDS))
                + "; the run took " + minutes(results.took()));
        boolean cluster = env.topology() == Topology.CLUSTER;
        line("- Command: `" + COMMAND + (cluster ? CLUSTER_OPTION : "") + "`");
        line("- Target: "
                + (cluster
                        ? "**Redis Cluster**: every contender connects in its cluster mode"
                        : "**standalone Redis**: one server"));
        line("- Machine: " + env.machine() + "; " + env.load());
        line("- " + env.java() + "; each contender runs in worker JVMs of its own (`"
                + String.join(" ", s.workerJvmArgs()) + "`)");
        line("- Redis " + env.redisVersion() + ": " + env.redisProvider());
        line("- Settings: " + s.trials() + " trials of " + seconds(s.trial()) + " per contender and scenario, after a "
                + seconds(s.warmup()) + " warm-up; trials go round the contenders; MONITOR probes of "
                + seconds(s.probe()) + "; every lease fixed at " + seconds(s.lease()) + "; contended waits up to "
                + seconds(s.maxWait()));
        line("");
        line("Contenders:");
        line("");
        env.contenders().forEach((label, what) -> line("- **" + label + "**: " + what));
        line("");
        if (!results.unavailable().isEmpty()) {
            line("Could not run on this target, so these contenders have no figures (the reason is the worker's own"
                    + " error; its log is in `logs/`):");
            line("");
            results.unavailable().forEach((kind, reason) -> line("- **" + kind.label() + "**: " + cell(reason)));
            line("");
        }
        line("Figures are the median of the trials, with the lowest and highest trial in brackets. A trial runs from"
                + " the common start until the last thread finished its last acquisition (acquisitions that were"
                + " waiting when the trial's time ran out still complete and count).");
        line("");
        line("![benchmark chart](" + chartFile + ")");
        line("");
        targets();
        results.of(Scenario.UNCONTENDED).ifPresent(this::uncontended);
        results.of(Scenario.PARALLEL).ifPresent(this::parallel);
        results.of(Scenario.CONTENDED).ifPresent(this::contended);
        results.of(Scenario.CONTENDED_PROCESSES).ifPresent(this::contended);
        results.of(Scenario.READ_HEAVY_PROCESSES).ifPresent(this::readHeavy);
        efficiency();
        List<ScenarioResults> pathRounds = results.rounds(Scenario.PATH_AMONG_HELD);
        if (!pathRounds.isEmpty()) {
            pathLocks(pathRounds);
        }
        correctness();
        return out.toString();
    }

    private void targets() {
        line("## Targets");
        line("");
        table(List.of("Target", "Measured (medians)", "Met", "Met in paired trials"));
        for (Verdict verdict : TargetCheck.evaluate(results)) {
            row(verdict.target(), verdict.measured(), verdict.met() ? "yes" : "**no**", verdict.pairedTrials());
        }
        line("");
        line("*Met* compares medians. *Met in paired trials* compares each trial of distlock with the other"
                + " contender's trial of the same number, which ran right next to it under the same load; a target met"
                + " in only some pairs is within the noise of this run.");
        line("");
    }

    private void uncontended(ScenarioResults s) {
        heading(s);
        Measurement baseline = s.measurements().stream()
                .filter(m -> !m.kind().isLock())
                .findFirst()
                .orElse(null);
        table(List.of("Contender", "p50 µs", "p99 µs", "mean µs", "ops/s", "p50 vs SET+DEL", "mean vs SET+DEL"));
        for (Measurement m : s.measurements()) {
            row(
                    m.kind().label(),
                    Numbers.spread(m.cycleMicros(50), Numbers::micros),
                    Numbers.spread(m.cycleMicros(99), Numbers::micros),
                    Numbers.spread(m.cycleMeanMicros(), Numbers::micros),
                    Numbers.spread(m.perSecond(), Numbers::count),
                    baseline == null
                            ? "-"
                            : Numbers.ratio(m.cycleMicros(50).median()
                                    / baseline.cycleMicros(50).median()),
                    baseline == null
                            ? "-"
                            : Numbers.ratio(m.cycleMeanMicros().median()
                                    / baseline.cycleMeanMicros().median()));
        }
        unavailableRows(s);
        line("");
    }

    private void parallel(ScenarioResults s) {
        heading(s);
        table(List.of("Contender", "ops/s", "lock+unlock p50 µs", "lock+unlock p99 µs"));
        for (Measurement m : s.measurements()) {
            row(
                    m.kind().label(),
                    Numbers.spread(m.perSecond(), Numbers::count),
                    Numbers.spread(m.cycleMicros(50), Numbers::micros),
                    Numbers.spread(m.cycleMicros(99), Numbers::micros));
        }
        unavailableRows(s);
        line("");
    }

    private void contended(ScenarioResults s) {
        heading(s);
        table(List.of(
                "Contender",
                "acquisitions/s",
                "acquire p50 ms",
                "acquire p99 ms",
                "acquire max ms",
                "fairness",
                "timeouts"));
        for (Measurement m : s.measurements()) {
            row(
                    m.kind().label(),
                    Numbers.spread(m.perSecond(), Numbers::count),
                    Numbers.spread(m.acquireMillis(50), Numbers::millis),
                    Numbers.spread(m.acquireMillis(99), Numbers::millis),
                    Numbers.spread(m.acquireMillis(100), Numbers::millis),
                    Numbers.spread(m.fairness(), Numbers::perAcquisition),
                    Long.toString(m.timeouts()));
        }
        unavailableRows(s);
        line("");
        line("Fairness is Jain's index over the threads' acquisition counts: 1.00 when every thread got the lock"
                + " equally often, 1/n when one of n threads got it every time. Percentiles are per acquisition, so a"
                + " lock that lets the releasing thread take it straight back shows many fast acquisitions by that"
                + " thread; the starved threads' waits show in the maximum and in a low fairness.");
        line("");
        if (s.measurements().stream().anyMatch(m -> !m.perProcess().isEmpty())) {
            processes(s);
        }
    }

    private void readHeavy(ScenarioResults s) {
        heading(s);
        table(List.of(
                "Contender",
                "operations/s",
                "read p50 ms",
                "read p99 ms",
                "write p50 ms",
                "write p99 ms",
                "most readers inside",
                "timeouts"));
        for (Measurement m : s.measurements()) {
            row(
                    m.kind().label(),
                    Numbers.spread(m.perSecond(), Numbers::count),
                    Numbers.spread(m.readAcquireMillis(50), Numbers::millis),
                    Numbers.spread(m.readAcquireMillis(99), Numbers::millis),
                    Numbers.spread(m.writeAcquireMillis(50), Numbers::millis),
                    Numbers.spread(m.writeAcquireMillis(99), Numbers::millis),
                    Numbers.spread(m.mostReadersInside(), Numbers::count),
                    Long.toString(m.timeouts()));
        }
        unavailableRows(s);
        line("");
        line("An operation is one acquisition, read or write, with its critical section and release. *Most readers"
                + " inside* is the highest count of readers, across JVMs, that one reader saw on entering: above 1"
                + " only where reads really share the lock; plain distlock takes every read exclusively and shows 1.");
        line("");
        processes(s);
    }

    private void pathLocks(List<ScenarioResults> rounds) {
        heading(rounds.get(0));
        List<ContenderKind> kinds =
                rounds.get(0).measurements().stream().map(Measurement::kind).toList();
        boolean ratio = kinds.contains(ContenderKind.SEED_FOLDER) && kinds.contains(ContenderKind.DISTLOCK_PATH);
        List<String> headers = new ArrayList<>(List.of("Locks held"));
        kinds.forEach(kind -> headers.addAll(List.of(kind.label() + " p50 µs", kind.label() + " p99 µs")));
        if (ratio) {
            headers.addAll(List.of("seed / distlock p50", "seed / distlock p99"));
        }
        table(headers);
        for (ScenarioResults round : rounds) {
            List<String> cells = new ArrayList<>(List.of(Numbers.count(round.held())));
            for (Measurement m : round.measurements()) {
                cells.add(Numbers.spread(m.acquireMillis(50), MarkdownReport::millisAsMicros));
                cells.add(Numbers.spread(m.acquireMillis(99), MarkdownReport::millisAsMicros));
            }
            if (ratio) {
                Measurement seed = round.of(ContenderKind.SEED_FOLDER).orElseThrow();
                Measurement distlock = round.of(ContenderKind.DISTLOCK_PATH).orElseThrow();
                for (double percentile : new double[] {50, 99}) {
                    cells.add(Numbers.spread(
                            PairedRatio.of(seed, distlock, PairedRatio.acquireMicros(percentile)), Numbers::ratio));
                }
            }
            row(cells.toArray(String[]::new));
        }
        line("");
        List<Measurement> measurements =
                rounds.stream().flatMap(round -> round.measurements().stream()).toList();
        long acquisitions = measurements.stream()
                .flatMap(m -> m.trials().stream())
                .mapToLong(trial -> trial.result().acquisitions())
                .sum();
        line("Times are of the acquire call alone, from the call until the lock is held. Each path is released right"
                + " after, untimed, so that the tree holds exactly as many locks throughout; the seed's release"
                + " (`GET`, `HDEL`, `DEL`) does not depend on them. The ratios pair each trial of the seed folder lock"
                + " with distlock's trial of the same number, which ran right next to it: the median pair, with the"
                + " lowest and highest in brackets. Both contenders hold the same paths; the seed folder lock's are"
                + " written into Redis as its acquire script leaves them (owner key with its expiry, hash field with"
                + " the client's clock), since taking them through the script would scan the hash once per lock."
                + " Every round's warm-up, which fills its tree, ran before the first round's trials, so that none"
                + " measured a cold JIT."
                + " No held lock conflicts with a measured path under either lock's rules: of "
                + Numbers.count(acquisitions) + " acquisitions in the trials, "
                + measurements.stream().mapToLong(Measurement::timeouts).sum() + " were refused, and "
                + measurements.stream().mapToLong(Measurement::failures).sum() + " failed in any run.");
        line("");
    }

    private static String millisAsMicros(double millis) {
        return Numbers.micros(millis * 1000);
    }

    private void processes(ScenarioResults s) {
        line("Between processes: each worker JVM's share of the acquisitions and its own waits. *p99 max/min* is the"
                + " highest process's p99 wait over the lowest one's, per trial: 1.00 when every process waited"
                + " alike.");
        line("");
        table(List.of(
                "Contender",
                "Process",
                "share of acquisitions",
                "acquire p50 ms",
                "acquire p99 ms",
                "acquire max ms",
                "p99 max/min"));
        for (Measurement m : s.measurements()) {
            String ratio = Numbers.spread(m.processP99Ratio(), Numbers::ratio);
            for (ProcessFairness process : m.perProcess()) {
                row(
                        m.kind().label(),
                        Integer.toString(process.process()),
                        Numbers.spread(process.sharePercent(), MarkdownReport::percent),
                        Numbers.spread(process.p50Millis(), Numbers::millis),
                        Numbers.spread(process.p99Millis(), Numbers::millis),
                        Numbers.spread(process.maxMillis(), Numbers::millis),
                        process.process() == 1 ? ratio : "");
            }
        }
        line("");
    }

    /** A row for each contender the scenario would have run but that could not run on the target. */
    private void unavailableRows(ScenarioResults s) {
        results.unavailable().forEach((kind, reason) -> {
            if (s.scenario().includes(kind)) {
                String[] cells = new String[tableColumns];
                cells[0] = kind.label();
                cells[1] = "**could not run on this target**: " + cell(reason);
                for (int i = 2; i < tableColumns; i++) {
                    cells[i] = "-";
                }
                row(cells);
            }
        });
    }

    /** Text made safe for a table cell: one line, no column separators. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace('\n', ' ');
    }

    private static String percent(double value) {
        return String.format(Locale.ROOT, "%.0f%%", value);
    }

    private void efficiency() {
        line("## 6. Efficiency: Redis commands and CPU per successful acquisition");
        line("");
        if (CONTENDED_SCENARIOS.stream()
                .anyMatch(scenario -> results.of(scenario).isPresent())) {
            commands();
        }
        cpu();
    }

    private void commands() {
        line("*All calls* is the difference of `INFO commandstats` around each trial, divided by the trial's"
                + " acquisitions. Redis counts the commands a Lua script calls (`redis.call`) in commandstats as well as"
                + " the `EVAL`/`EVALSHA` that ran the script, so this is the work Redis did, not the number of"
                + " requests. *Top-level* and *in scripts* split the same work by sender; they come from a separate "
                + seconds(results.settings().probe()) + " probe run under `MONITOR`, which shows script calls as `[0"
                + " lua]` (MONITOR slows Redis, so the probe is not a trial, and for spinning locks its ratio can"
                + " differ a little from the trials'). Left out everywhere: the harness's own commands (`INFO`, `ECHO`,"
                + " and the `INCRBY`/`DECRBY` of the cross-process checks of scenarios 4 and 5) and connection setup and keep-alive"
                + " (`HELLO`, `AUTH`, `SELECT`, `CLIENT ...`, `COMMAND ...`, `PING`, and on a cluster the"
                + " clients' topology refreshes, `CLUSTER ...`). *(Un)subscribes* counts `SUBSCRIBE`,"
                + " `PSUBSCRIBE` and `SSUBSCRIBE` (and their `UNSUBSCRIBE` counterparts) per trial; subscriptions"
                + " opened during warm-up and kept are not in it.");
        line("");
        table(List.of(
                "Scenario",
                "Contender",
                "All calls / acq",
                "Top-level / acq",
                "In scripts / acq",
                "(Un)subscribes / trial",
                "Commands per acquisition (all calls)"));
        for (Scenario scenario : CONTENDED_SCENARIOS) {
            results.of(scenario).ifPresent(s -> {
                for (Measurement m : s.measurements()) {
                    Probe probe = m.probe();
                    row(
                            Integer.toString(scenario.number()),
                            m.kind().label(),
                            Numbers.spread(m.commandsPerAcquisition(), Numbers::perAcquisition),
                            probe == null ? "-" : Numbers.perAcquisition(probe.topLevelPerAcquisition()),
                            probe == null ? "-" : Numbers.perAcquisition(probe.inScriptsPerAcquisition()),
                            Numbers.spread(m.subscribesPerTrial(), Numbers::count) + " / "
                                    + Numbers.spread(m.unsubscribesPerTrial(), Numbers::count),
                            mix(m.commandMix()));
                }
            });
        }
        line("");
        line("Top-level commands per acquisition in the probes, by command:");
        line("");
        for (Scenario scenario : CONTENDED_SCENARIOS) {
            results.of(scenario).ifPresent(s -> {
                for (Measurement m : s.measurements()) {
                    Probe probe = m.probe();
                    if (probe != null) {
                        line("- S" + scenario.number() + " " + m.kind().label() + ": top-level "
                                + mix(perAcquisition(probe, probe.commands().topLevel())) + "; in scripts "
                                + mix(perAcquisition(probe, probe.commands().inScripts())));
                    }
                }
            });
        }
        line("");
    }

    private void cpu() {
        line("CPU time per successful acquisition, in microseconds: the contender's worker JVMs (all their threads:"
                + " client library, benchmark threads, JIT and GC) and the Redis server (`INFO cpu`, user + system)."
                + " On a machine with few cores these two add up to the limit of throughput.");
        line("");
        table(List.of("Scenario", "Contender", "Client CPU µs / acq", "Redis CPU µs / acq"));
        for (ScenarioResults s : results.scenarios()) {
            for (Measurement m : s.measurements()) {
                row(
                        s.label(),
                        m.kind().label(),
                        Numbers.spread(m.clientCpuMicros(), Numbers::micros),
                        Numbers.spread(m.redisCpuMicros(), Numbers::micros));
            }
        }
        line("");
    }

    private void correctness() {
        line("## Correctness while measuring");
        line("");
        line("Violations count evidence of two holders at once in any run (warm-up, trials, probe): another thread"
                + " found inside the critical section, a lost update of a deliberately unguarded counter, and in"
                + " scenario 4 a Redis counter that did not go exactly 0 -> 1 -> 0, in scenario 5 a writer that was not"
                + " alone or a reader beside a writer. Failures are exceptions from"
                + " acquire, critical section or release.");
        line("");
        table(List.of("Scenario", "Contender", "Violations", "Failures", "First failure"));
        for (ScenarioResults s : results.scenarios()) {
            for (Measurement m : s.measurements()) {
                row(
                        s.label(),
                        m.kind().label(),
                        Long.toString(m.violations()),
                        Long.toString(m.failures()),
                        cell(m.firstFailure()));
            }
        }
        line("");
    }

    private void heading(ScenarioResults s) {
        line("## " + s.scenario().number() + ". " + s.scenario().title());
        line("");
        line(s.scenario().shape(results.settings()) + ".");
        line("");
    }

    private static Map<String, Double> perAcquisition(Probe probe, Map<String, Long> counts) {
        return counts.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> probe.perAcquisition(e.getValue())));
    }

    private static String mix(Map<String, Double> perAcquisition) {
        if (perAcquisition.isEmpty()) {
            return "-";
        }
        return perAcquisition.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(e -> e.getKey() + " " + Numbers.perAcquisition(e.getValue()))
                .collect(Collectors.joining(", "));
    }

    private void table(List<String> headers) {
        tableColumns = headers.size();
        row(headers.toArray(String[]::new));
        line("|" + " --- |".repeat(headers.size()));
    }

    private void row(String... cells) {
        line("| " + String.join(" | ", cells) + " |");
    }

    private void line(String text) {
        out.append(text).append('\n');
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0)
                .replace(".0 s", " s");
    }

    private static String minutes(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds / 60 + " min " + seconds % 60 + " s";
    }
}
