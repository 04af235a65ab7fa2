package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.Topology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How long and how hard the benchmarks run. {@link #fromSystemProperties()} reads {@code bench.*} system properties;
 * lock-benchmarks/README.md lists them.
 *
 * @param trials measured trials per contender and scenario
 * @param warmup one round of the unmeasured run before the trials of each contender and scenario; rounds follow one
 *     another until the contender's client CPU per acquisition stops falling ({@link WarmUp})
 * @param warmupLimit how long the warm-up rounds of one contender and scenario may run together at most
 * @param trial how long each trial starts new acquisitions
 * @param probe how long the command-splitting probe of each contended scenario runs, under MONITOR
 * @param parallelThreads threads of scenario 2
 * @param contendedThreads threads of scenario 3
 * @param processes worker processes of scenarios 4 and 5
 * @param threadsPerProcess threads in each process of scenarios 4 and 5
 * @param lease the fixed lease of every acquisition
 * @param maxWait how long a contended acquisition waits at most
 * @param held how many locks the tree holds in each round of the path scenario, in order
 * @param scenarios which scenarios run
 * @param contenders which contenders run
 * @param redisUri the Redis to use, or null for a throwaway server
 * @param target whether the throwaway Redis is one server or a Redis Cluster, and so how the contenders connect
 * @param workerJvmArgs the JVM options of the worker processes
 * @param output where results go
 */
public record BenchmarkSettings(
        int trials,
        Duration warmup,
        Duration warmupLimit,
        Duration trial,
        Duration probe,
        int parallelThreads,
        int contendedThreads,
        int processes,
        int threadsPerProcess,
        Duration lease,
        Duration maxWait,
        List<Integer> held,
        List<Scenario> scenarios,
        List<ContenderKind> contenders,
        @Nullable String redisUri,
        Topology target,
        List<String> workerJvmArgs,
        Path output) {

    /**
     * Every worker gets the same heap, so no contender wins by having more of it. A full run keeps about sixty workers
     * alive at once (three for each contender of the multi-process scenarios), and with 512 MB each they outgrew a
     * 24 GiB machine; a worker's live data is a few megabytes.
     */
    private static final List<String> WORKER_HEAP = List.of("-Xms256m", "-Xmx256m");

    /** How many trials each contender runs per scenario unless {@code bench.trials} says otherwise. */
    public static final int DEFAULT_TRIALS = 10;

    /** Checks the settings. */
    public BenchmarkSettings {
        if (trials < 1 || parallelThreads < 1 || contendedThreads < 2 || processes < 1 || threadsPerProcess < 1) {
            throw new IllegalArgumentException("trials and thread counts must be positive, with at least 2 contended"
                    + " threads: trials=" + trials + ", threads=" + parallelThreads + "/" + contendedThreads + "/"
                    + processes + "x" + threadsPerProcess);
        }
        if (scenarios.isEmpty() || contenders.isEmpty()) {
            throw new IllegalArgumentException("at least one scenario and one contender must run");
        }
        if (held.isEmpty() || held.stream().anyMatch(count -> count < 1)) {
            throw new IllegalArgumentException(
                    "the path scenario needs at least one positive number of held locks: " + held);
        }
        held = List.copyOf(held);
        scenarios = List.copyOf(scenarios);
        contenders = List.copyOf(contenders);
        workerJvmArgs = List.copyOf(workerJvmArgs);
    }

    /**
     * The full benchmark's settings, changed by {@code bench.*} system properties.
     *
     * @return the settings
     */
    public static BenchmarkSettings fromSystemProperties() {
        List<String> jvmArgs = new ArrayList<>(WORKER_HEAP);
        jvmArgs.addAll(words(property("bench.jvmArgs", "")));
        String redis = property("bench.redis", System.getenv().getOrDefault("DISTLOCK_BENCH_REDIS", ""));
        return new BenchmarkSettings(
                Integer.parseInt(property("bench.trials", Integer.toString(DEFAULT_TRIALS))),
                duration(property("bench.warmup", "2s")),
                duration(property("bench.warmupLimit", "20s")),
                duration(property("bench.trial", "1s")),
                duration(property("bench.probe", "1500ms")),
                Integer.parseInt(property("bench.parallelThreads", "32")),
                Integer.parseInt(property("bench.contendedThreads", "16")),
                Integer.parseInt(property("bench.processes", "3")),
                Integer.parseInt(property("bench.threadsPerProcess", "8")),
                duration(property("bench.lease", "30s")),
                duration(property("bench.wait", "10s")),
                numbers(property("bench.held", "10,100,1000,10000")),
                scenarios(property("bench.scenarios", "all")),
                contenders(property("bench.contenders", "all")),
                redis.isBlank() ? null : redis.trim(),
                target(property("bench.target", Topology.STANDALONE.id())),
                jvmArgs,
                Path.of(property("bench.output", "target/benchmark-results")));
    }

    private static final Set<ContenderKind> SAME_CODE_AS_ANOTHER = EnumSet.of(
            ContenderKind.REDLOCK_5,
            ContenderKind.REDISSON_FAIR,
            ContenderKind.REDISSON_RW,
            ContenderKind.SI_SPIN,
            ContenderKind.DISTLOCK_CLASSIC,
            ContenderKind.DISTLOCK_LOCAL_HANDOVER);

    /**
     * Settings for a smoke run: every blocking contender in every scenario but the path scenario, for a fraction of a
     * second each, except those that run the same adapter code as another on the same client, which would only add
     * worker JVMs to every build: the 5-node Redlock (the 3-node one stays), Redisson's fair and read-write locks
     * (Redisson's lock stays), Spring Integration's spin mode (its pub/sub mode stays), distlock with local handover,
     * which differs from distlock by a builder setting, and distlock with classic pub/sub, which differs from
     * distlock only on a cluster. The full run has them all but the last, which runs only
     * where {@code bench.contenders} names it.
     * {@link #pathSmoke} runs the path scenario, {@link #asyncSmoke} the non-blocking contenders, {@link #backendSmoke}
     * those of the other backends: each in a run of its own, so that no run starts more worker JVMs at once than a small
     * machine boots within the workers' first timeouts.
     *
     * @param output where results go
     * @return the settings
     */
    public static BenchmarkSettings smoke(Path output) {
        return smoke(
                Arrays.stream(Scenario.values())
                        .filter(scenario -> !scenario.amongHeldLocks())
                        .toList(),
                Arrays.stream(ContenderKind.values())
                        .filter(kind ->
                                !SAME_CODE_AS_ANOTHER.contains(kind) && !kind.isAsync() && !kind.isOtherBackend())
                        .toList(),
                output);
    }

    /**
     * Settings for a smoke run of the path scenario alone: both path contenders among 10 and then 100 held locks, for a
     * fraction of a second each.
     *
     * @param output where results go
     * @return the settings
     */
    public static BenchmarkSettings pathSmoke(Path output) {
        return smoke(
                List.of(Scenario.PATH_AMONG_HELD),
                Arrays.stream(ContenderKind.values())
                        .filter(ContenderKind::isPath)
                        .toList(),
                output);
    }

    /**
     * Settings for a smoke run of the non-blocking contenders alone, in the scenarios they run in, for a fraction of a
     * second each.
     *
     * @param output where results go
     * @return the settings
     */
    public static BenchmarkSettings asyncSmoke(Path output) {
        List<ContenderKind> async = Arrays.stream(ContenderKind.values())
                .filter(ContenderKind::isAsync)
                .toList();
        return smoke(
                Arrays.stream(Scenario.values())
                        .filter(scenario -> async.stream().anyMatch(scenario::includes))
                        .toList(),
                async,
                output);
    }

    /**
     * Settings for a smoke run of distlock's {@code java.util.concurrent.locks.Lock} view in every way the contenders
     * hold it, with distlock's own API that it is compared with, on one contended key in one JVM, for a fraction of a
     * second each: the ways differ only within a JVM.
     *
     * @param output where results go
     * @return the settings
     */
    public static BenchmarkSettings viewSmoke(Path output) {
        List<ContenderKind> contenders = new ArrayList<>();
        contenders.add(ContenderKind.DISTLOCK);
        Arrays.stream(ContenderKind.values())
                .filter(ContenderKind::isJavaLockView)
                .forEach(contenders::add);
        return smoke(List.of(Scenario.CONTENDED), contenders, output);
    }

    /**
     * Settings for a smoke run of the other backends' contenders, with distlock on Redis that they are compared with,
     * in the scenarios they run in, for a fraction of a second each.
     *
     * @param output where results go
     * @return the settings
     */
    public static BenchmarkSettings backendSmoke(Path output) {
        List<ContenderKind> contenders = new ArrayList<>();
        contenders.add(ContenderKind.DISTLOCK);
        Arrays.stream(ContenderKind.values())
                .filter(ContenderKind::isOtherBackend)
                .forEach(contenders::add);
        // Scenarios 1 and 3: the read-heavy one, where the plain locks also run, starts three JVMs per contender.
        return smoke(List.of(Scenario.UNCONTENDED, Scenario.CONTENDED), contenders, output);
    }

    private static BenchmarkSettings smoke(List<Scenario> scenarios, List<ContenderKind> contenders, Path output) {
        return new BenchmarkSettings(
                1,
                Duration.ofMillis(100),
                Duration.ofMillis(100),
                Duration.ofMillis(300),
                Duration.ofMillis(200),
                4,
                4,
                2,
                2,
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                List.of(10, 100),
                scenarios,
                contenders,
                null,
                Topology.STANDALONE,
                WORKER_HEAP,
                output);
    }

    private static String property(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    private static Topology target(String id) {
        try {
            return Topology.target(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bench.target: " + e.getMessage(), e);
        }
    }

    private static List<String> words(String text) {
        return text.isBlank() ? List.of() : Arrays.asList(text.trim().split("\\s+"));
    }

    private static List<Integer> numbers(String list) {
        return Arrays.stream(list.split(","))
                .map(number -> Integer.valueOf(number.trim()))
                .toList();
    }

    /**
     * The contenders a run takes when {@code bench.contenders} names none: all but the classic pub/sub variants.
     *
     * @return in the order the results list them
     */
    public static List<ContenderKind> defaultContenders() {
        return Arrays.stream(ContenderKind.values())
                .filter(kind -> !kind.isClassicPubSubVariant())
                .toList();
    }

    private static List<ContenderKind> contenders(String ids) {
        if (ids.equalsIgnoreCase("all")) {
            return defaultContenders();
        }
        return Arrays.stream(ids.split(","))
                .map(ContenderKind::byId)
                .distinct()
                .sorted()
                .toList();
    }

    private static List<Scenario> scenarios(String numbers) {
        if (numbers.equalsIgnoreCase("all")) {
            return List.of(Scenario.values());
        }
        return Arrays.stream(numbers.split(","))
                .map(number -> Scenario.byNumber(Integer.parseInt(number.trim())))
                .distinct()
                .sorted()
                .toList();
    }

    /** Reads {@code 500ms}, {@code 2s} or {@code 1.5s}. */
    static Duration duration(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        if (value.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
        }
        if (value.endsWith("s")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(value.substring(0, value.length() - 1)) * 1000));
        }
        throw new IllegalArgumentException("a duration needs a unit, ms or s, like 500ms or 2s; got '" + text + "'");
    }
}
