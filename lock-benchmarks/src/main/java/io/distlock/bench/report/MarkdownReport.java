package io.distlock.bench.report;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.BenchmarkSettings;
import io.distlock.bench.Environment;
import io.distlock.bench.Measurement;
import io.distlock.bench.ProcessFairness;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.Topology;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** Writes the results as Markdown: the run's circumstances, the targets, then one table per scenario. */
public final class MarkdownReport {

    private final BenchmarkResults results;
    private final MarkdownText md = new MarkdownText();

    private MarkdownReport(BenchmarkResults results) {
        this.results = results;
    }

    /**
     * Renders the results.
     *
     * @param results the run's results
     * @param chartFile the chart's file name, next to the Markdown file, or null where no chart was drawn
     * @param commit the commit the run measured
     * @return the Markdown text
     */
    public static String render(BenchmarkResults results, @Nullable String chartFile, String commit) {
        return new MarkdownReport(results).document(chartFile, commit);
    }

    private String document(@Nullable String chartFile, String commit) {
        Environment env = results.environment();
        BenchmarkSettings s = results.settings();
        line("# distlock benchmark results");
        line("");
        line("- Date: " + DateTimeFormatter.ISO_INSTANT.format(env.date().truncatedTo(ChronoUnit.SECONDS))
                + "; the run took " + minutes(results.took()));
        boolean cluster = env.topology() == Topology.CLUSTER;
        line("- Command: `" + RunCommand.of(s, env.topology()) + "` at commit " + commit);
        line("- Target: "
                + (cluster
                        ? "**Redis Cluster**: every contender connects in its cluster mode"
                        : "**standalone Redis**: one server"));
        line("- Machine: " + env.machine() + "; " + env.load());
        line("- " + env.java() + "; each contender runs in worker JVMs of its own (`"
                + String.join(" ", s.workerJvmArgs()) + "`)");
        line("- Redis " + env.redisVersion() + ": " + env.redisProvider());
        line("- Settings: " + s.trials() + " trials of " + Numbers.seconds(s.trial())
                + " per contender and scenario, after a warm-up in rounds of " + Numbers.seconds(s.warmup())
                + " until the client CPU per acquisition falls by less than 10 % from one round to the next (at most "
                + Numbers.seconds(s.warmupLimit()) + "); trials go round the contenders; MONITOR probes of "
                + Numbers.seconds(s.probe()) + "; every lease fixed at " + Numbers.seconds(s.lease())
                + "; contended waits up to "
                + Numbers.seconds(s.maxWait()));
        line("");
        line("Contenders:");
        line("");
        Set<String> ran = s.contenders().stream().map(ContenderKind::label).collect(Collectors.toSet());
        env.contenders().forEach((label, what) -> {
            if (ran.contains(label)) {
                line("- **" + label + "**: " + what);
            }
        });
        line("");
        if (!results.unavailable().isEmpty()) {
            line("Could not run on this target, so these contenders have no figures (the reason is the worker's own"
                    + " error; its log is in `logs/`):");
            line("");
            results.unavailable()
                    .forEach((kind, reason) -> line("- **" + kind.label() + "**: " + MarkdownText.cell(reason)));
            line("");
        }
        line("Figures are the median of the trials, with the lowest and highest trial in brackets. A trial runs from"
                + " the common start until the last thread finished its last acquisition (acquisitions that were"
                + " waiting when the trial's time ran out still complete and count).");
        line("");
        if (chartFile != null) {
            line("![benchmark chart](" + chartFile + ")");
            line("");
        }
        targets();
        results.of(Scenario.UNCONTENDED).ifPresent(this::uncontended);
        results.of(Scenario.PARALLEL).ifPresent(this::parallel);
        results.of(Scenario.CONTENDED).ifPresent(this::contended);
        results.of(Scenario.CONTENDED_PROCESSES).ifPresent(this::contended);
        results.of(Scenario.READ_HEAVY_PROCESSES).ifPresent(this::readHeavy);
        results.of(Scenario.SEMAPHORE_PROCESSES).ifPresent(this::semaphore);
        AsyncSection.write(md, results);
        OtherBackendsSection.write(md, results);
        EfficiencySection.write(md, results);
        List<ScenarioResults> pathRounds = results.rounds(Scenario.PATH_AMONG_HELD);
        if (!pathRounds.isEmpty()) {
            heading(pathRounds.get(0));
            PathLockSection.write(md, pathRounds);
        }
        correctness();
        return md.toString();
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

    private void semaphore(ScenarioResults s) {
        heading(s);
        table(List.of("Contender", "permits/s", "acquire p50 ms", "acquire p99 ms", "most holders inside", "timeouts"));
        for (Measurement m : s.measurements()) {
            row(
                    m.kind().label(),
                    Numbers.spread(m.perSecond(), Numbers::count),
                    Numbers.spread(m.acquireMillis(50), Numbers::millis),
                    Numbers.spread(m.acquireMillis(99), Numbers::millis),
                    Numbers.spread(m.mostReadersInside(), Numbers::count),
                    Long.toString(m.timeouts()));
        }
        unavailableRows(s);
        line("");
        line("A permit is one acquisition of one of the key's " + ContenderKind.SEMAPHORE_PERMITS + " permits, with"
                + " its critical section and release. *Most holders inside* is the highest count of holders, across"
                + " JVMs, that one holder saw on entering: it must never pass the permits, and it reaches them only"
                + " where the permits are really shared.");
        line("");
        processes(s);
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
                String[] cells = new String[md.tableColumns()];
                cells[0] = kind.label();
                cells[1] = "**could not run on this target**: " + MarkdownText.cell(reason);
                for (int i = 2; i < md.tableColumns(); i++) {
                    cells[i] = "-";
                }
                row(cells);
            }
        });
    }

    private static String percent(double value) {
        return String.format(Locale.ROOT, "%.0f%%", value);
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
                        MarkdownText.cell(m.firstFailure()));
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

    private void table(List<String> headers) {
        md.table(headers);
    }

    private void row(String... cells) {
        md.row(cells);
    }

    private void line(String text) {
        md.line(text);
    }

    private static String minutes(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds / 60 + " min " + seconds % 60 + " s";
    }
}
