package io.distlock.fuzz;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The settings of one worker process, passed as its command-line arguments, one {@code name=value} each, so that a
 * setting added later (such as a lock option under test) is one more name rather than a shifted position.
 *
 * @param checkerHost the host of the checker's Redis, which also holds the locks unless cluster or Redlock nodes
 *     are given
 * @param checkerPort the port of the checker's Redis
 * @param clusterNodes {@code host:port} of the Redis Cluster's nodes that hold the locks; empty unless the locks are on
 *     a cluster
 * @param redlockNodes {@code host:port} of the independent Redis masters of a Redlock that hold the locks; empty unless
 *     the locks are on a Redlock group. With neither, the locks are on the checker's Redis
 * @param storeFactory the {@link FuzzLockFactory} class that builds a lock in a store other than Redis, on the worker's
 *     class path; empty unless the kind is {@linkplain LockKind#inStore() in a store}
 * @param storeAddress where that store is, in the form its factory takes; empty unless the locks are in a store
 * @param namespace the run's key namespace, shared by all its processes
 * @param kind the lock to drive
 * @param process this process's number, naming its sections
 * @param threads worker threads, or with {@code asyncHolders} the acquisitions in flight at once
 * @param asyncHolders whether holders take the lock through the non-blocking API, no thread waiting for it
 * @param keyNames the lock keys all threads share; URL-encoded on the command line, so that any name, such as a path
 *     with commas, spaces or non-ASCII text, arrives whatever the platform's encoding of arguments
 * @param seconds how long to hammer, from the start signal
 * @param seed the seed of this process's random draws
 * @param lockOptions how to configure the lock and its Redis client
 */
record WorkerConfig(
        String checkerHost,
        int checkerPort,
        List<String> clusterNodes,
        List<String> redlockNodes,
        String storeFactory,
        String storeAddress,
        String namespace,
        LockKind kind,
        int process,
        int threads,
        boolean asyncHolders,
        List<String> keyNames,
        int seconds,
        long seed,
        LockOptions lockOptions) {

    private static final List<String> NAMES = List.of(
            "checkerHost",
            "checkerPort",
            "clusterNodes",
            "redlockNodes",
            "storeFactory",
            "storeAddress",
            "namespace",
            "kind",
            "process",
            "threads",
            "asyncHolders",
            "keyNames",
            "seconds",
            "seed",
            "commandTimeoutMillis",
            "replicaAcks");

    WorkerConfig {
        clusterNodes = List.copyOf(clusterNodes);
        redlockNodes = List.copyOf(redlockNodes);
        if (!clusterNodes.isEmpty() && !redlockNodes.isEmpty()) {
            throw new IllegalArgumentException("the locks are on a cluster or on a Redlock group, not both");
        }
        if (kind.inStore() == storeFactory.isEmpty()) {
            throw new IllegalArgumentException("a lock in a store, and only such a lock, needs a factory: " + kind
                    + " with factory '" + storeFactory + "'");
        }
        keyNames = List.copyOf(keyNames);
        if (keyNames.isEmpty()) {
            throw new IllegalArgumentException("a fuzz worker needs at least one lock key");
        }
    }

    static WorkerConfig parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("expected name=value, but got " + arg);
            }
            values.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        if (!values.keySet().equals(Set.copyOf(NAMES))) {
            throw new IllegalArgumentException("expected the arguments " + NAMES + ", but got " + List.of(args));
        }
        return new WorkerConfig(
                values.get("checkerHost"),
                Integer.parseInt(values.get("checkerPort")),
                list(values.get("clusterNodes")),
                list(values.get("redlockNodes")),
                values.get("storeFactory"),
                values.get("storeAddress"),
                values.get("namespace"),
                LockKind.valueOf(values.get("kind")),
                Integer.parseInt(values.get("process")),
                Integer.parseInt(values.get("threads")),
                Boolean.parseBoolean(values.get("asyncHolders")),
                list(values.get("keyNames")).stream()
                        .map(name -> URLDecoder.decode(name, StandardCharsets.UTF_8))
                        .toList(),
                Integer.parseInt(values.get("seconds")),
                Long.parseLong(values.get("seed")),
                new LockOptions(
                        Duration.ofMillis(Long.parseLong(values.get("commandTimeoutMillis"))),
                        Integer.parseInt(values.get("replicaAcks"))));
    }

    List<String> toArgs() {
        List<String> values = List.of(
                checkerHost,
                Integer.toString(checkerPort),
                String.join(",", clusterNodes),
                String.join(",", redlockNodes),
                storeFactory,
                storeAddress,
                namespace,
                kind.name(),
                Integer.toString(process),
                Integer.toString(threads),
                Boolean.toString(asyncHolders),
                keyNames.stream()
                        .map(name -> URLEncoder.encode(name, StandardCharsets.UTF_8))
                        .collect(Collectors.joining(",")),
                Integer.toString(seconds),
                Long.toString(seed),
                Long.toString(lockOptions.commandTimeout().toMillis()),
                Integer.toString(lockOptions.replicaAcks()));
        return IntStream.range(0, NAMES.size())
                .mapToObj(i -> NAMES.get(i) + "=" + values.get(i))
                .toList();
    }

    /** Whether the locks live on a Redis Cluster, apart from the checker's Redis. */
    boolean onCluster() {
        return !clusterNodes.isEmpty();
    }

    /** Whether the locks live on the independent Redis masters of a Redlock, apart from the checker's Redis. */
    boolean onRedlock() {
        return !redlockNodes.isEmpty();
    }

    /** The names {@code key0}, {@code key1}, ... of a run on one Redis, where any names do. */
    static List<String> keyNames(int count) {
        return IntStream.range(0, count).mapToObj(i -> "key" + i).toList();
    }

    /** The prefix of the locks' own Redis keys, apart from the checker's. */
    String lockPrefix() {
        return lockPrefix(namespace);
    }

    static String lockPrefix(String namespace) {
        return namespace + "lock:";
    }

    private static List<String> list(String commaSeparated) {
        return commaSeparated.isEmpty() ? List.of() : List.of(commaSeparated.split(",", -1));
    }
}
