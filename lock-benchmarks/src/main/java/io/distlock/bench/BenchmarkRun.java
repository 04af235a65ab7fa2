package io.distlock.bench;

import io.distlock.bench.backend.BackendServers;
import io.distlock.bench.contender.BackendEndpoint;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.ContenderTarget;
import io.distlock.bench.redis.CommandCounts;
import io.distlock.bench.redis.CommandMonitor;
import io.distlock.bench.redis.ContenderServers;
import io.distlock.bench.redis.MonitorCounts;
import io.distlock.bench.redis.RedisInfo;
import io.distlock.bench.redis.RedisTarget;
import io.distlock.bench.worker.WorkerGroup;
import io.distlock.bench.worker.WorkerPool;
import io.distlock.bench.worker.WorkloadResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs every scenario for every contender against one Redis (a Redlock against independent servers of its own, a
 * contender of another backend against that backend's server, started for the run) and collects the results.
 *
 * <p>Each contender runs in worker processes of its own, all started before the first measurement. Within a
 * scenario, every contender warms up first; then the trials go round: trial 1 of every contender, then trial 2, and so
 * on, so that a disturbance of the machine spreads over all contenders instead of hitting one. Contenders never run at
 * the same time, so the difference of {@code INFO commandstats} around a trial, read from the servers the contender
 * locks on, is that contender's alone. The path scenario runs like one scenario per number of held locks, each in a tree
 * of its own that the warm-up fills.
 */
public final class BenchmarkRun {

    private final BenchmarkSettings settings;
    private final RedisTarget target;
    private final Consumer<String> progress;
    private final String runId = Long.toString(System.currentTimeMillis(), 36);

    /**
     * Prepares a run.
     *
     * @param settings how long and how hard
     * @param target the Redis to run against
     * @param progress where progress lines go
     */
    public BenchmarkRun(BenchmarkSettings settings, RedisTarget target, Consumer<String> progress) {
        this.settings = settings;
        this.target = target;
        this.progress = progress;
    }

    /**
     * Runs all scenarios.
     *
     * @return the results
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a worker failed, with the end of its log
     */
    public BenchmarkResults run() throws InterruptedException {
        Instant started = Instant.now();
        long startNanos = System.nanoTime();
        String loadAtStart = Environment.loadAverage();
        Map<ContenderKind, Integer> processes = processesPerContender();
        try (ContenderServers servers = ContenderServers.open(target, processes.keySet());
                BackendServers backends = BackendServers.start(processes.keySet())) {
            String redisVersion = servers.targetInfo().serverVersion();
            progress.accept("Redis " + redisVersion + ": " + target.provider() + "; load average " + loadAtStart);
            if (processes.keySet().stream().anyMatch(ContenderKind::isRedlock)) {
                progress.accept("Redlock nodes: " + servers.redlockDescription());
            }
            backends.descriptions().forEach(server -> progress.accept("Other backend: " + server));
            List<ScenarioResults> scenarios = new ArrayList<>();
            Map<ContenderKind, String> unavailable = new LinkedHashMap<>();
            progress.accept("Starting "
                    + processes.values().stream().mapToInt(Integer::intValue).sum() + " worker JVMs");
            try (WorkerPool pool = WorkerPool.start(
                    processes,
                    kind -> target(kind, servers, backends),
                    settings.workerJvmArgs(),
                    settings.output().resolve("logs"))) {
                pool.unavailable().forEach((kind, failure) -> {
                    progress.accept(
                            kind.label() + " could not run on this target and is left out: " + failure.getMessage());
                    unavailable.put(kind, failure.reason());
                });
                for (Scenario scenario : settings.scenarios()) {
                    List<Integer> rounds = scenario.amongHeldLocks() ? settings.held() : List.of(0);
                    // Every round warms up before any is measured: filling the trees of the larger rounds runs each
                    // lock's acquisition thousands of times, which the first rounds would otherwise measure cold.
                    Map<Integer, Map<ContenderKind, WorkloadResult>> warmups = new LinkedHashMap<>();
                    for (int held : rounds) {
                        warmups.put(held, warmUp(scenario, held, pool));
                    }
                    for (int held : rounds) {
                        scenarios.add(measure(scenario, held, warmups.get(held), pool, servers));
                    }
                }
            }
            return new BenchmarkResults(
                    settings,
                    Environment.describe(started, target, redisVersion, loadAtStart, backends.descriptions()),
                    scenarios,
                    unavailable,
                    Duration.ofNanos(System.nanoTime() - startNanos));
        }
    }

    /** As many worker processes for each contender as the selected scenario that needs most of them. */
    private Map<ContenderKind, Integer> processesPerContender() {
        Map<ContenderKind, Integer> processes = new LinkedHashMap<>();
        for (ContenderKind kind : settings.contenders()) {
            settings.scenarios().stream()
                    .filter(scenario -> scenario.includes(kind))
                    .mapToInt(scenario -> scenario.processes(settings))
                    .max()
                    .ifPresent(count -> processes.put(kind, count));
        }
        return processes;
    }

    /** What a contender's workers lock on; another backend's pool holds as many connections as a scenario has threads. */
    private ContenderTarget target(ContenderKind kind, ContenderServers servers, BackendServers backends) {
        BackendEndpoint backend = backends.address(kind)
                .map(address -> new BackendEndpoint(address, mostThreads(kind)))
                .orElse(null);
        return new ContenderTarget(servers.nodes(kind), backend);
    }

    private int mostThreads(ContenderKind kind) {
        return settings.scenarios().stream()
                .filter(scenario -> scenario.includes(kind))
                .mapToInt(scenario ->
                        scenario.workload(settings, "any", 0, settings.trial()).threads())
                .max()
                .orElse(1);
    }

    private List<ContenderKind> kinds(Scenario scenario, WorkerPool pool) {
        return settings.contenders().stream()
                .filter(scenario::includes)
                .filter(pool::has)
                .toList();
    }

    private Map<ContenderKind, WorkloadResult> warmUp(Scenario scenario, int held, WorkerPool pool)
            throws InterruptedException {
        progress.accept("Scenario " + ScenarioResults.label(scenario, held) + ", " + scenario.title() + ": "
                + scenario.shape(settings) + "; warming up");
        Map<ContenderKind, WorkloadResult> warmups = new LinkedHashMap<>();
        for (ContenderKind kind : kinds(scenario, pool)) {
            WorkerGroup group = pool.group(kind);
            int[] round = {0};
            List<WorkloadResult> rounds = WarmUp.run(
                    () -> run(group, scenario, held, "warmup" + ++round[0], settings.warmup()),
                    BenchmarkRun::clientCpuMicrosPerAcquisition,
                    settings.warmup(),
                    // A path round's warm-up fills its tree once; a second round would take the held locks again.
                    held > 0 ? settings.warmup() : settings.warmupLimit());
            progress.accept(String.format(
                    Locale.ROOT,
                    "  S%s warm-up %-18s %d round(s) of %d ms, client CPU per acquisition %s us",
                    ScenarioResults.label(scenario, held),
                    kind.label(),
                    rounds.size(),
                    settings.warmup().toMillis(),
                    rounds.stream()
                            .map(r -> String.format(Locale.ROOT, "%.0f", clientCpuMicrosPerAcquisition(r)))
                            .toList()));
            warmups.put(kind, WorkloadResult.merge(rounds));
        }
        return warmups;
    }

    /** The client CPU per acquisition of a warm-up round; NaN if it acquired nothing. */
    private static double clientCpuMicrosPerAcquisition(WorkloadResult result) {
        return result.acquisitions() == 0 ? Double.NaN : result.cpuNanos() / 1e3 / result.acquisitions();
    }

    private ScenarioResults measure(
            Scenario scenario,
            int held,
            Map<ContenderKind, WorkloadResult> warmups,
            WorkerPool pool,
            ContenderServers servers)
            throws InterruptedException {
        List<ContenderKind> kinds = kinds(scenario, pool);
        Map<ContenderKind, List<Trial>> trials = new LinkedHashMap<>();
        for (int number = 1; number <= settings.trials(); number++) {
            for (ContenderKind kind : kinds) {
                RedisInfo info = servers.info(kind);
                CommandCounts before = info.commandCounts();
                double cpuBefore = info.cpuSeconds();
                WorkloadResult result = run(pool.group(kind), scenario, held, "trial" + number, settings.trial());
                Trial trial = new Trial(result, info.commandCounts().since(before), info.cpuSeconds() - cpuBefore);
                trials.computeIfAbsent(kind, any -> new ArrayList<>()).add(trial);
                progress.accept(describe(scenario, held, number, kind, trial));
            }
        }
        List<Measurement> measurements = new ArrayList<>();
        for (ContenderKind kind : kinds) {
            // MONITOR sees only Redis, where another backend's contender sends no lock command to split.
            Probe probe = scenario.contended() && !kind.isOtherBackend()
                    ? probe(pool.group(kind), scenario, servers.info(kind))
                    : null;
            measurements.add(new Measurement(kind, warmups.get(kind), trials.get(kind), probe));
        }
        return new ScenarioResults(scenario, held, measurements);
    }

    private Probe probe(WorkerGroup group, Scenario scenario, RedisInfo info) throws InterruptedException {
        try (CommandMonitor monitor = CommandMonitor.start(info)) {
            WorkloadResult result = run(group, scenario, 0, "probe", settings.probe());
            MonitorCounts seen = monitor.awaitCounts();
            progress.accept(String.format(
                    Locale.ROOT,
                    "  S%d probe   %-18s top-level %s, in scripts %s",
                    scenario.number(),
                    group.kind().label(),
                    seen.topLevel(),
                    seen.inScripts()));
            return new Probe(result, seen);
        }
    }

    private WorkloadResult run(WorkerGroup group, Scenario scenario, int held, String tag, Duration duration)
            throws InterruptedException {
        // A tree's held locks serve its warm-up and trials alike. The seed folder lock reads its keys as Lua patterns,
        // so the tree's name has none of their special characters, such as the '-' in contender ids.
        String key = held > 0
                ? String.join(":", "bench", runId, "s" + scenario.number(), "held" + held)
                : String.join(":", "bench", runId, group.kind().id(), "s" + scenario.number(), tag);
        return group.run(scenario.workload(settings, key, held, duration), scenario.processes(settings));
    }

    private static String describe(Scenario scenario, int held, int trial, ContenderKind kind, Trial result) {
        WorkloadResult r = result.result();
        boolean acquireAlone = scenario.contended() || scenario.amongHeldLocks();
        return String.format(
                Locale.ROOT,
                "  S%s trial %d %-18s %,10.0f /s  p50 %,9.1f us  p99 %,9.1f us  cmds/acq %5.2f  cpu/acq %5.1f +"
                        + " %5.1f us  violations %d  failures %d  timeouts %d",
                ScenarioResults.label(scenario, held),
                trial,
                kind.label(),
                r.perSecond(),
                (acquireAlone ? r.acquireNanos() : r.cycleNanos()).getValueAtPercentile(50) / 1e3,
                (acquireAlone ? r.acquireNanos() : r.cycleNanos()).getValueAtPercentile(99) / 1e3,
                result.commandsPerAcquisition(),
                result.clientCpuMicrosPerAcquisition(),
                result.redisCpuMicrosPerAcquisition(),
                r.violations(),
                r.failures(),
                r.timeouts());
    }
}
