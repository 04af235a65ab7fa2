package io.distlock.fuzz;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The settings of one worker process, passed as its command-line arguments.
 *
 * @param host the Redis host
 * @param port the Redis port
 * @param namespace the run's key namespace, shared by all its processes
 * @param kind the lock to drive
 * @param process this process's number, naming its sections
 * @param threads worker threads
 * @param keys how many lock keys all threads share
 * @param seconds how long to hammer, from the start signal
 * @param seed the seed of this process's random draws
 */
record WorkerConfig(
        String host,
        int port,
        String namespace,
        LockKind kind,
        int process,
        int threads,
        int keys,
        int seconds,
        long seed) {

    static WorkerConfig parse(String[] args) {
        if (args.length != 9) {
            throw new IllegalArgumentException("expected 9 arguments: host port namespace kind process threads keys "
                    + "seconds seed, but got " + List.of(args));
        }
        return new WorkerConfig(
                args[0],
                Integer.parseInt(args[1]),
                args[2],
                LockKind.valueOf(args[3]),
                Integer.parseInt(args[4]),
                Integer.parseInt(args[5]),
                Integer.parseInt(args[6]),
                Integer.parseInt(args[7]),
                Long.parseLong(args[8]));
    }

    List<String> toArgs() {
        return List.of(
                host,
                Integer.toString(port),
                namespace,
                kind.name(),
                Integer.toString(process),
                Integer.toString(threads),
                Integer.toString(keys),
                Integer.toString(seconds),
                Long.toString(seed));
    }

    /** The names of the lock keys, the same in every process of the run. */
    List<String> keyNames() {
        return keyNames(keys);
    }

    static List<String> keyNames(int count) {
        return IntStream.range(0, count).mapToObj(i -> "key" + i).toList();
    }

    /** The prefix of the locks' own Redis keys, apart from the checker's. */
    String lockPrefix() {
        return namespace + "lock:";
    }
}
