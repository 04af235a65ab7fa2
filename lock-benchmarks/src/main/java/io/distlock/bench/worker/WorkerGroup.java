package io.distlock.bench.worker;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.ContenderTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker processes of one contender. A workload runs in the first one or in several together, as the processes
 * of one distributed application would.
 */
public final class WorkerGroup implements AutoCloseable {

    /** Workers need a moment to read their workload and start its threads before the common start. */
    private static final long START_DELAY_MILLIS = 100;

    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration RESULT_MARGIN = Duration.ofMinutes(1);

    private final ContenderKind kind;
    private final List<WorkerProcess> processes;

    private WorkerGroup(ContenderKind kind, List<WorkerProcess> processes) {
        this.kind = kind;
        this.processes = processes;
    }

    /**
     * Starts the processes without waiting for them; {@link #awaitReady()} waits.
     *
     * @param kind the contender each process runs
     * @param count how many processes
     * @param target what the contender locks on
     * @param jvmArgs the workers' JVM options
     * @param logDirectory where each worker's standard error goes, one file per worker
     * @return the group
     */
    public static WorkerGroup start(
            ContenderKind kind, int count, ContenderTarget target, List<String> jvmArgs, Path logDirectory) {
        List<WorkerProcess> processes = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            processes.add(WorkerProcess.start(kind, i, target, jvmArgs, logDirectory));
        }
        return new WorkerGroup(kind, processes);
    }

    /**
     * The contender the group runs.
     *
     * @return the contender
     */
    public ContenderKind kind() {
        return kind;
    }

    /**
     * Waits until every process has connected its contender.
     *
     * @throws InterruptedException if interrupted while waiting
     * @throws IllegalStateException if a process failed or did not start in time, with the end of its log
     */
    public void awaitReady() throws InterruptedException {
        for (WorkerProcess process : processes) {
            process.awaitReady(STARTUP_TIMEOUT);
        }
    }

    /**
     * Runs a workload in the first {@code count} processes of the group, all starting at the same moment, and adds up
     * their results.
     *
     * @param workload the workload; its start time is set here
     * @param count how many processes run it
     * @return the processes' results together
     * @throws InterruptedException if interrupted while waiting
     * @throws IllegalStateException if a process failed, with the end of its log
     */
    public WorkloadResult run(Workload workload, int count) throws InterruptedException {
        if (count < 1 || count > processes.size()) {
            throw new IllegalArgumentException(
                    "the group of " + kind.label() + " has " + processes.size() + " processes, not " + count);
        }
        List<WorkerProcess> running = processes.subList(0, count);
        Workload timed = workload.startingAt(System.currentTimeMillis() + START_DELAY_MILLIS);
        running.forEach(process -> process.send(timed));
        Duration timeout = Duration.ofMillis(START_DELAY_MILLIS)
                .plus(workload.duration())
                .plus(workload.maxWait().multipliedBy(2))
                .plus(RESULT_MARGIN);
        List<WorkloadResult> results = new ArrayList<>();
        for (WorkerProcess process : running) {
            results.add(process.awaitResult(timeout));
        }
        return WorkloadResult.merge(results);
    }

    /** Tells every process to exit, and waits for them. */
    @Override
    public void close() {
        processes.forEach(WorkerProcess::close);
    }
}
