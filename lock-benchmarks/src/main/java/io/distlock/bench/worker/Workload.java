package io.distlock.bench.worker;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * What a worker process runs for one warm-up, trial or probe: how many threads take which keys, for how long, and how
 * the critical section checks that its holder is alone.
 *
 * @param threads how many threads take locks in this process
 * @param keyMode whether each acquisition takes a new key or all take one
 * @param key the shared key, or the prefix of the fresh keys
 * @param check what the critical section verifies
 * @param lease the lease of every acquisition
 * @param maxWait how long an acquisition waits at most
 * @param startEpochMillis when the threads start, by the wall clock, so that processes start together
 * @param duration how long threads start new acquisitions; running ones finish afterwards
 */
public record Workload(
        int threads,
        KeyMode keyMode,
        String key,
        int held,
        Check check,
        Duration lease,
        Duration maxWait,
        long startEpochMillis,
        Duration duration) {

    /** The lease of the locks a tree holds while fresh paths are taken in it: longer than any run. */
    public static final Duration HELD_LEASE = Duration.ofHours(1);

    /** Which keys the threads take. */
    public enum KeyMode {
        /** Each acquisition takes a key no one else ever takes. */
        FRESH,
        /** Every thread of every process takes the same key. */
        SHARED,
        /**
         * Each acquisition takes a path no one else ever takes, in a tree that holds {@code held} other locks, none of
         * which conflicts with it (see {@link TreePaths}).
         */
        PATH
    }

    /** Checks that a tree of fresh paths holds locks to take them among, and that only it does. */
    public Workload {
        if ((keyMode == KeyMode.PATH) != (held > 0)) {
            throw new IllegalArgumentException(
                    "fresh paths, and only they, are taken among held locks: keyMode=" + keyMode + ", held=" + held);
        }
    }

    /** What the critical section verifies. */
    public enum Check {
        /** Nothing: the keys are not shared. */
        NONE,
        /** That no other thread of this process is inside, and that no update of an unguarded counter was lost. */
        IN_PROCESS,
        /** The in-process checks, and that a counter in Redis goes from 0 to 1 and back, which spans processes. */
        IN_PROCESS_AND_REDIS,
        /**
         * Each acquisition is a read with probability {@link #READ_SHARE}, else a write; writers are alone, readers meet
         * no writer, across processes.
         */
        READ_WRITE,
        /**
         * Each acquisition takes one of the key's permits; never more holders than the permits are inside, across
         * processes, and the most inside at once is counted.
         */
        PERMITS;

        /** The share of reads in a {@link #READ_WRITE} workload. */
        public static final double READ_SHARE = 0.9;
    }

    /**
     * The same workload starting at another time.
     *
     * @param epochMillis the new start, by the wall clock
     * @return the changed workload
     */
    public Workload startingAt(long epochMillis) {
        return new Workload(threads, keyMode, key, held, check, lease, maxWait, epochMillis, duration);
    }

    /** The key of one acquisition of one thread. */
    String keyFor(int thread, long sequence) {
        return switch (keyMode) {
            case SHARED -> key;
            case FRESH -> key + ":" + thread + ":" + sequence;
            // The start time tells the runs in one tree apart, so that no run takes a path an earlier one released.
            case PATH -> key + "/" + TreePaths.measured(startEpochMillis, thread, sequence);
        };
    }

    /**
     * The locks the tree holds while the workload runs, as the path contenders read them: the tree, {@code /} and the
     * path.
     */
    List<String> heldKeys() {
        return LongStream.range(0, held)
                .mapToObj(index -> key + "/" + TreePaths.held(index))
                .toList();
    }

    /** The workload as one line of {@code name=value} fields. */
    String encode() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("threads", Integer.toString(threads));
        fields.put("keyMode", keyMode.name());
        fields.put("key", key);
        fields.put("held", Integer.toString(held));
        fields.put("check", check.name());
        fields.put("lease", Long.toString(lease.toMillis()));
        fields.put("wait", Long.toString(maxWait.toMillis()));
        fields.put("start", Long.toString(startEpochMillis));
        fields.put("duration", Long.toString(duration.toMillis()));
        return WireFields.format(fields);
    }

    static Workload decode(String line) {
        Map<String, String> fields = WireFields.parse(line);
        return new Workload(
                Integer.parseInt(WireFields.get(fields, "threads")),
                KeyMode.valueOf(WireFields.get(fields, "keyMode")),
                WireFields.get(fields, "key"),
                Integer.parseInt(WireFields.get(fields, "held")),
                Check.valueOf(WireFields.get(fields, "check")),
                Duration.ofMillis(Long.parseLong(WireFields.get(fields, "lease"))),
                Duration.ofMillis(Long.parseLong(WireFields.get(fields, "wait"))),
                Long.parseLong(WireFields.get(fields, "start")),
                Duration.ofMillis(Long.parseLong(WireFields.get(fields, "duration"))));
    }
}
