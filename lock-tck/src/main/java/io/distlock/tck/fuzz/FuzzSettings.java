package io.distlock.tck.fuzz;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The size of a fuzz run. The defaults fit a normal build on a small machine; a soak run raises them through system
 * properties ({@code -Dfuzz.seconds=600}) or environment variables ({@code FUZZ_SECONDS=600}): {@code fuzz.seconds},
 * {@code fuzz.processes}, {@code fuzz.threads}, {@code fuzz.keys} and {@code fuzz.seed} (to repeat a run's draws).
 *
 * @param seconds how long the workers hammer the locks
 * @param processes worker JVMs
 * @param threads worker threads per JVM
 * @param keys lock keys shared by all workers
 * @param seed the seed of the workers' random draws
 * @param asyncHolders whether each JVM's holders take the lock through the non-blocking API, {@code threads}
 *     acquisitions in flight instead of {@code threads} threads waiting
 */
public record FuzzSettings(int seconds, int processes, int threads, int keys, long seed, boolean asyncHolders) {

    /**
     * Checks the sizes.
     *
     * @throws IllegalArgumentException if a size is below 1
     */
    public FuzzSettings {
        if (seconds < 1 || processes < 1 || threads < 1 || keys < 1) {
            throw new IllegalArgumentException("fuzz settings must all be at least 1: " + seconds + " s, " + processes
                    + " processes, " + threads + " threads, " + keys + " keys");
        }
    }

    /**
     * The run the build does by default (5 s, 2 processes, 6 threads, 4 keys: some two thousand sections, dozens of
     * them outliving a short lease), or as large as the system properties or environment ask.
     *
     * @return the settings, with a random seed unless one is asked for
     */
    public static FuzzSettings fromEnvironment() {
        return fromEnvironment(5, 2, 6, 4);
    }

    /**
     * A run of the given size, or as large as the system properties or environment ask.
     *
     * @param seconds how long the workers hammer, unless {@code fuzz.seconds} says otherwise
     * @param processes worker JVMs, unless {@code fuzz.processes} says otherwise
     * @param threads worker threads per JVM, unless {@code fuzz.threads} says otherwise
     * @param keys lock keys shared by all workers, unless {@code fuzz.keys} says otherwise
     * @return the settings, with a random seed unless {@code fuzz.seed} gives one
     */
    public static FuzzSettings fromEnvironment(int seconds, int processes, int threads, int keys) {
        return new FuzzSettings(
                (int) setting("seconds", seconds),
                (int) setting("processes", processes),
                (int) setting("threads", threads),
                (int) setting("keys", keys),
                setting("seed", ThreadLocalRandom.current().nextLong()),
                false);
    }

    /**
     * A short run against a broken lock, which the checker must catch: 4 s, 2 processes, 6 threads. Two keys crowd
     * more waiters onto each, so that one of them takes the lock in the moment a broken release goes wrong (the rarest
     * catch, a release in separate commands, was caught 27 times in 6 s on a busy machine).
     *
     * @return the settings, with a random seed
     */
    public static FuzzSettings control() {
        return control(4);
    }

    /**
     * A run like {@link #control()}, of the given length.
     *
     * @param seconds how long the workers hammer
     * @return the settings, with a random seed
     */
    public static FuzzSettings control(int seconds) {
        return new FuzzSettings(seconds, 2, 6, 2, ThreadLocalRandom.current().nextLong(), false);
    }

    /** These settings for a run twice as long, for a machine that gave the last run too little time to show much. */
    FuzzSettings twiceAsLong() {
        return new FuzzSettings(seconds * 2, processes, threads, keys, seed, asyncHolders);
    }

    /** These settings with {@code keys} lock keys, as a run that makes its own keys has. */
    FuzzSettings withKeys(int keys) {
        return new FuzzSettings(seconds, processes, threads, keys, seed, asyncHolders);
    }

    /**
     * These settings with asynchronous holders: as many acquisitions in flight per JVM as it would have threads.
     *
     * @return the settings with asynchronous holders
     */
    public FuzzSettings withAsyncHolders() {
        return new FuzzSettings(seconds, processes, threads, keys, seed, true);
    }

    /** The seed of one worker process, different for each. */
    long seedOf(int process) {
        return seed ^ (process * 0x9E3779B97F4A7C15L);
    }

    private static long setting(String name, long fallback) {
        String value = System.getProperty("fuzz." + name);
        if (value == null || value.isBlank()) {
            value = System.getenv("FUZZ_" + name.toUpperCase(Locale.ROOT));
        }
        return value == null || value.isBlank() ? fallback : Long.parseLong(value.trim());
    }
}
