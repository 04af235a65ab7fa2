package io.distlock.bench.report;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.Measurement;
import io.distlock.bench.Probe;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.contender.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Section 6 of the results: the Redis commands and CPU each contender spent per successful acquisition. */
final class EfficiencySection {

    /** The scenarios whose threads wait for each other, and so whose Redis commands per acquisition tell something. */
    private static final List<Scenario> CONTENDED_SCENARIOS =
            List.of(Scenario.CONTENDED, Scenario.CONTENDED_PROCESSES, Scenario.READ_HEAVY_PROCESSES);

    private final MarkdownText md;
    private final BenchmarkResults results;

    private EfficiencySection(MarkdownText md, BenchmarkResults results) {
        this.md = md;
        this.results = results;
    }

    static void write(MarkdownText md, BenchmarkResults results) {
        new EfficiencySection(md, results).efficiency();
    }

    private void efficiency() {
        line("## 6. Efficiency: Redis commands and CPU per successful acquisition");
        line("");
        if (results.scenarios().stream()
                .flatMap(s -> s.measurements().stream())
                .anyMatch(m -> m.kind().isOtherBackend())) {
            line("The contenders of other backends than Redis send Redis no lock work and are left out here; their"
                    + " client CPU is in the section on the other backends.");
            line("");
        }
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
                + Numbers.seconds(results.settings().probe())
                + " probe run under `MONITOR`, which shows script calls as `[0"
                + " lua]` (MONITOR slows Redis, so the probe is not a trial, and for spinning locks its ratio can"
                + " differ a little from the trials'). Left out everywhere: the harness's own commands (`INFO`, `ECHO`,"
                + " and the `INCRBY`/`DECRBY` of the cross-process checks of scenarios 4 and 5) and connection setup and keep-alive"
                + " (`HELLO`, `AUTH`, `SELECT`, `CLIENT ...`, `COMMAND ...`, `PING`, and on a cluster the"
                + " clients' topology refreshes, `CLUSTER ...`). *(Un)subscribes* counts `SUBSCRIBE`,"
                + " `PSUBSCRIBE` and `SSUBSCRIBE` (and their `UNSUBSCRIBE` counterparts) per trial; subscriptions"
                + " opened during warm-up and kept are not in it."
                + (onCluster()
                        ? " *Bus messages* are the pub/sub messages the cluster's nodes sent each other (`CLUSTER"
                                + " INFO`: `PUBLISH` is forwarded to every other node, sharded `SPUBLISH` only to the"
                                + " other nodes of its shard), per acquisition."
                        : ""));
        line("");
        List<String> headers = new ArrayList<>(List.of(
                "Scenario",
                "Contender",
                "All calls / acq",
                "Top-level / acq",
                "In scripts / acq",
                "(Un)subscribes / trial"));
        if (onCluster()) {
            headers.add("Bus messages / acq");
        }
        headers.add("Commands per acquisition (all calls)");
        table(headers);
        for (Scenario scenario : CONTENDED_SCENARIOS) {
            results.of(scenario).ifPresent(s -> {
                for (Measurement m : onRedis(s)) {
                    Probe probe = m.probe();
                    List<String> cells = new ArrayList<>(List.of(
                            Integer.toString(scenario.number()),
                            m.kind().label(),
                            Numbers.spread(m.commandsPerAcquisition(), Numbers::perAcquisition),
                            probe == null ? "-" : Numbers.perAcquisition(probe.topLevelPerAcquisition()),
                            probe == null ? "-" : Numbers.perAcquisition(probe.inScriptsPerAcquisition()),
                            Numbers.spread(m.subscribesPerTrial(), Numbers::count) + " / "
                                    + Numbers.spread(m.unsubscribesPerTrial(), Numbers::count)));
                    if (onCluster()) {
                        cells.add(Numbers.spread(m.busMessagesPerAcquisition(), Numbers::perAcquisition));
                    }
                    cells.add(mix(m.commandMix()));
                    row(cells.toArray(String[]::new));
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
            for (Measurement m : onRedis(s)) {
                row(
                        s.label(),
                        m.kind().label(),
                        Numbers.spread(m.clientCpuMicros(), Numbers::micros),
                        Numbers.spread(m.redisCpuMicros(), Numbers::micros));
            }
        }
        line("");
    }

    private boolean onCluster() {
        return results.settings().target() == Topology.CLUSTER;
    }

    private static List<Measurement> onRedis(ScenarioResults s) {
        return s.measurements().stream().filter(m -> !m.kind().isOtherBackend()).toList();
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
        md.table(headers);
    }

    private void row(String... cells) {
        md.row(cells);
    }

    private void line(String text) {
        md.line(text);
    }
}
