package io.distlock.tck.fuzz;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The settings of one worker process for one run, sent as one line on the worker's standard input: {@code name=value}
 * fields separated by spaces, so that a setting added later is one more name rather than a shifted position. Values
 * that may hold any text (the address, the variant, the options, the namespace, the key names) are URL-encoded, which
 * leaves no space or line break in them.
 *
 * @param witnessPort the port of the parent's witness on the loopback interface
 * @param factory the {@link FuzzLockFactory} class that builds the lock, on the worker's class path
 * @param address where the lock's store is, in the form its factory takes
 * @param variant which lock the factory builds
 * @param options the factory's settings
 * @param mix what the sections do
 * @param namespace the run's namespace, shared by all its processes, under which the locks keep their keys
 * @param process this process's number, naming its sections
 * @param threads worker threads, or with {@code asyncHolders} the acquisitions in flight at once
 * @param asyncHolders whether holders take the lock through the non-blocking API, no thread waiting for it
 * @param keyNames the lock keys all threads share, such as paths with commas, spaces or non-ASCII text
 * @param seconds how long to hammer, from the start signal
 * @param seed the seed of this process's random draws
 */
record WorkerConfig(
        int witnessPort,
        String factory,
        String address,
        String variant,
        Map<String, String> options,
        SectionMix mix,
        String namespace,
        int process,
        int threads,
        boolean asyncHolders,
        List<String> keyNames,
        int seconds,
        long seed) {

    private static final List<String> NAMES = List.of(
            "witnessPort",
            "factory",
            "address",
            "variant",
            "options",
            "mix",
            "namespace",
            "process",
            "threads",
            "asyncHolders",
            "keyNames",
            "seconds",
            "seed");

    WorkerConfig {
        options = Map.copyOf(options);
        keyNames = List.copyOf(keyNames);
        if (keyNames.isEmpty()) {
            throw new IllegalArgumentException("a fuzz worker needs at least one lock key");
        }
    }

    /** The settings of {@link #toLine()}. */
    static WorkerConfig parse(String line) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : line.split(" ")) {
            int equals = arg.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("expected name=value, but got " + arg);
            }
            values.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        if (!values.keySet().equals(Set.copyOf(NAMES))) {
            throw new IllegalArgumentException("expected the fields " + NAMES + ", but got " + line);
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (String option : list(values.get("options"))) {
            int equals = option.indexOf('=');
            options.put(decode(option.substring(0, equals)), decode(option.substring(equals + 1)));
        }
        return new WorkerConfig(
                Integer.parseInt(values.get("witnessPort")),
                values.get("factory"),
                decode(values.get("address")),
                decode(values.get("variant")),
                options,
                SectionMix.valueOf(values.get("mix")),
                decode(values.get("namespace")),
                Integer.parseInt(values.get("process")),
                Integer.parseInt(values.get("threads")),
                Boolean.parseBoolean(values.get("asyncHolders")),
                list(values.get("keyNames")).stream().map(WorkerConfig::decode).toList(),
                Integer.parseInt(values.get("seconds")),
                Long.parseLong(values.get("seed")));
    }

    /** These settings as one line, without its line break. */
    String toLine() {
        List<String> values = List.of(
                Integer.toString(witnessPort),
                factory,
                encode(address),
                encode(variant),
                options.entrySet().stream()
                        .map(option -> encode(option.getKey()) + "=" + encode(option.getValue()))
                        .collect(Collectors.joining(",")),
                mix.name(),
                encode(namespace),
                Integer.toString(process),
                Integer.toString(threads),
                Boolean.toString(asyncHolders),
                keyNames.stream().map(WorkerConfig::encode).collect(Collectors.joining(",")),
                Integer.toString(seconds),
                Long.toString(seed));
        return IntStream.range(0, NAMES.size())
                .mapToObj(i -> NAMES.get(i) + "=" + values.get(i))
                .collect(Collectors.joining(" "));
    }

    /** The prefix of the locks' own keys, apart from other runs' on the same servers. */
    String lockPrefix() {
        return lockPrefix(namespace);
    }

    static String lockPrefix(String namespace) {
        return namespace + "lock:";
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    private static List<String> list(String commaSeparated) {
        return commaSeparated.isEmpty() ? List.of() : List.of(commaSeparated.split(",", -1));
    }
}
