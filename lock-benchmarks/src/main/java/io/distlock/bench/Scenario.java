package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.worker.Workload;
import io.distlock.bench.worker.Workload.Check;
import io.distlock.bench.worker.Workload.KeyMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The measured scenarios; the sixth, efficiency, is read from the commands of the contended ones (3, 4 and 5) and is
 * not run of its own. The seventh runs once for each number of locks held in its tree.
 */
public enum Scenario {
    UNCONTENDED(1, "Uncontended latency"),
    PARALLEL(2, "Parallel throughput, distinct keys"),
    CONTENDED(3, "Contended, one JVM"),
    CONTENDED_PROCESSES(4, "Contended, across processes"),
    READ_HEAVY_PROCESSES(5, "Read-heavy, across processes"),
    PATH_AMONG_HELD(7, "Path locks, acquire among held locks"),
    SEMAPHORE_PROCESSES(8, "Semaphore, across processes");

    private final int number;
    private final String title;

    Scenario(int number, String title) {
        this.number = number;
        this.title = title;
    }

    /**
     * Finds a scenario by its number.
     *
     * @param number 1 to 5, 7 or 8
     * @return the scenario
     * @throws IllegalArgumentException for another number
     */
    public static Scenario byNumber(int number) {
        for (Scenario scenario : values()) {
            if (scenario.number == number) {
                return scenario;
            }
        }
        throw new IllegalArgumentException(
                "scenarios are numbered 1 to 5, 7 and 8 (6 is read from 3, 4 and 5), not " + number);
    }

    /**
     * The scenario's number in the results.
     *
     * @return 1 to 5, 7 or 8
     */
    public int number() {
        return number;
    }

    /**
     * The scenario's heading in the results.
     *
     * @return the title
     */
    public String title() {
        return title;
    }

    /**
     * Whether threads wait for each other's locks in this scenario.
     *
     * @return true for scenarios 3, 4, 5 and 8
     */
    public boolean contended() {
        return this == CONTENDED
                || this == CONTENDED_PROCESSES
                || this == READ_HEAVY_PROCESSES
                || this == SEMAPHORE_PROCESSES;
    }

    /**
     * Whether a contender takes part: the baseline is not a lock and cannot be contended. A Redlock runs where its cost
     * over single-node distlock is the question: one lock+unlock alone (1), and one key contended by several
     * application processes (4), as Redlock's users run it; 2 and 3 would lengthen the run without asking anything
     * new of it. The read-heavy scenario asks what sharing the reads buys, so it runs the read-write locks and, as the
     * reference that takes every read exclusively, plain distlock; the read-write locks run nowhere else. The path
     * locks run in the path scenario, and nothing else does; so do the semaphores in theirs. The non-blocking contenders run in one JVM (1 to 3): the
     * critical sections of 4 and 5 call Redis and would block the completion threads that the non-blocking API must
     * not block. The contenders of the other backends run alone (1) and on one key in one JVM (3), beside distlock on
     * Redis, which is what they are compared with; their read-write locks run in the read-heavy scenario, and so does
     * distlock's plain lock on each of them, as the reference that takes every read exclusively.
     *
     * @param kind the contender
     * @return true if it runs in this scenario
     */
    public boolean includes(ContenderKind kind) {
        if (this == SEMAPHORE_PROCESSES || kind.isSemaphore()) {
            return this == SEMAPHORE_PROCESSES && kind.isSemaphore();
        }
        if (this == PATH_AMONG_HELD || kind.isPath()) {
            return this == PATH_AMONG_HELD && kind.isPath();
        }
        if (kind.isOtherBackend()) {
            if (kind.isReadWrite()) {
                return this == READ_HEAVY_PROCESSES;
            }
            boolean plain = kind == ContenderKind.DISTLOCK_JDBC || kind == ContenderKind.DISTLOCK_ZOOKEEPER;
            return this == UNCONTENDED || this == CONTENDED || (plain && this == READ_HEAVY_PROCESSES);
        }
        if (kind.isAsync()) {
            return this == UNCONTENDED || this == PARALLEL || this == CONTENDED;
        }
        if (this == READ_HEAVY_PROCESSES) {
            return kind.isReadWrite() || kind == ContenderKind.DISTLOCK;
        }
        if (kind.isReadWrite()) {
            return false;
        }
        if (kind.isRedlock()) {
            return this == UNCONTENDED || this == CONTENDED_PROCESSES;
        }
        return kind.isLock() || !contended();
    }

    /**
     * How many worker processes each contender uses.
     *
     * @param settings the run's settings
     * @return the number of processes
     */
    public int processes(BenchmarkSettings settings) {
        return this == CONTENDED_PROCESSES || this == READ_HEAVY_PROCESSES || this == SEMAPHORE_PROCESSES
                ? settings.processes()
                : 1;
    }

    /**
     * Whether the scenario runs once for each of {@link BenchmarkSettings#held()}, taking paths in a tree that holds
     * that many locks.
     *
     * @return true for the path scenario
     */
    public boolean amongHeldLocks() {
        return this == PATH_AMONG_HELD;
    }

    /**
     * What runs in each process.
     *
     * @param settings the run's settings
     * @param key the shared key, or the prefix of fresh keys, unique to the run, contender and trial; in the path
     *     scenario the tree, shared by the warm-up and the trials of one number of held locks
     * @param held how many locks the tree holds, in the path scenario; 0 in the others
     * @param duration how long new acquisitions start
     * @return the workload, to be timed by the worker group
     */
    public Workload workload(BenchmarkSettings settings, String key, int held, Duration duration) {
        return switch (this) {
            case UNCONTENDED ->
                new Workload(1, KeyMode.FRESH, key, 0, Check.NONE, settings.lease(), settings.maxWait(), 0, duration);
            case PATH_AMONG_HELD ->
                new Workload(1, KeyMode.PATH, key, held, Check.NONE, settings.lease(), settings.maxWait(), 0, duration);
            case PARALLEL ->
                new Workload(
                        settings.parallelThreads(),
                        KeyMode.FRESH,
                        key,
                        0,
                        Check.NONE,
                        settings.lease(),
                        settings.maxWait(),
                        0,
                        duration);
            case CONTENDED ->
                new Workload(
                        settings.contendedThreads(),
                        KeyMode.SHARED,
                        key,
                        0,
                        Check.IN_PROCESS,
                        settings.lease(),
                        settings.maxWait(),
                        0,
                        duration);
            case CONTENDED_PROCESSES ->
                new Workload(
                        settings.threadsPerProcess(),
                        KeyMode.SHARED,
                        key,
                        0,
                        Check.IN_PROCESS_AND_REDIS,
                        settings.lease(),
                        settings.maxWait(),
                        0,
                        duration);
            case READ_HEAVY_PROCESSES ->
                new Workload(
                        settings.threadsPerProcess(),
                        KeyMode.SHARED,
                        key,
                        0,
                        Check.READ_WRITE,
                        settings.lease(),
                        settings.maxWait(),
                        0,
                        duration);
            case SEMAPHORE_PROCESSES ->
                new Workload(
                        settings.threadsPerProcess(),
                        KeyMode.SHARED,
                        key,
                        0,
                        Check.PERMITS,
                        settings.lease(),
                        settings.maxWait(),
                        0,
                        duration);
        };
    }

    /**
     * The scenario's shape in words, for the results.
     *
     * @param settings the run's settings
     * @return for example "16 threads in one JVM on one key"
     */
    public String shape(BenchmarkSettings settings) {
        return switch (this) {
            case UNCONTENDED -> "1 thread; lock + unlock of a fresh key per operation";
            case PARALLEL ->
                settings.parallelThreads() + " threads in one JVM; lock + unlock of a fresh key per operation";
            case CONTENDED ->
                settings.contendedThreads() + " threads in one JVM on one key; the critical section checks it is alone";
            case CONTENDED_PROCESSES ->
                settings.processes() + " JVMs x " + settings.threadsPerProcess()
                        + " threads on one key; the critical section checks it is alone in its JVM and, through an"
                        + " INCRBY/DECRBY counter that must go 0 -> 1 -> 0, across JVMs";
            case READ_HEAVY_PROCESSES ->
                settings.processes() + " JVMs x " + settings.threadsPerProcess() + " threads on one key; each"
                        + " operation reads with probability " + Workload.Check.READ_SHARE + ", else writes; an"
                        + " INCRBY/DECRBY counter across JVMs proves writers alone and readers never beside a writer";
            case SEMAPHORE_PROCESSES ->
                settings.processes() + " JVMs x " + settings.threadsPerProcess() + " threads on one key of "
                        + ContenderKind.SEMAPHORE_PERMITS
                        + " permits; an INCRBY/DECRBY counter across JVMs proves never"
                        + " more than " + ContenderKind.SEMAPHORE_PERMITS + " holders inside";
            case PATH_AMONG_HELD ->
                "1 thread; per operation, acquire (timed) and release of a fresh path, a new file of depth 3 to 5 in"
                        + " folders drawn like the held locks', in a tree that holds " + heldCounts(settings)
                        + " locks of depth 3 to 5, with leases of " + Workload.HELD_LEASE.toMinutes() + " min; no held"
                        + " lock conflicts with a measured path, so every acquisition succeeds at once";
        };
    }

    private static String heldCounts(BenchmarkSettings settings) {
        List<String> counts = settings.held().stream()
                .map(count -> String.format(Locale.ROOT, "%,d", count))
                .toList();
        return counts.size() == 1
                ? counts.get(0)
                : String.join(", ", counts.subList(0, counts.size() - 1)) + " or " + counts.get(counts.size() - 1);
    }
}
