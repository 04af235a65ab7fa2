package io.distlock.bench.worker;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.RedisEndpoint;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@link WorkerGroup} per contender, all started before any measurement so that their JVMs boot in parallel and no
 * JVM boots while another contender is measured.
 */
public final class WorkerPool implements AutoCloseable {

    private final Map<ContenderKind, WorkerGroup> groups = new LinkedHashMap<>();

    private WorkerPool() {}

    /**
     * Starts the workers of every contender and waits until all are connected.
     *
     * @param processes how many worker processes each contender needs
     * @param endpoint the Redis under test
     * @param jvmArgs the workers' JVM options
     * @param logDirectory where the workers' logs go
     * @return the ready pool
     * @throws InterruptedException if interrupted while waiting
     */
    public static WorkerPool start(
            Map<ContenderKind, Integer> processes, RedisEndpoint endpoint, List<String> jvmArgs, Path logDirectory)
            throws InterruptedException {
        WorkerPool pool = new WorkerPool();
        try {
            for (Map.Entry<ContenderKind, Integer> kind : processes.entrySet()) {
                pool.groups.put(
                        kind.getKey(),
                        WorkerGroup.start(kind.getKey(), kind.getValue(), endpoint, jvmArgs, logDirectory));
            }
            for (WorkerGroup group : pool.groups.values()) {
                group.awaitReady();
            }
            return pool;
        } catch (RuntimeException | InterruptedException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * The workers of one contender.
     *
     * @param kind the contender
     * @return its group
     * @throws IllegalArgumentException if the pool has no workers for it
     */
    public WorkerGroup group(ContenderKind kind) {
        WorkerGroup group = groups.get(kind);
        if (group == null) {
            throw new IllegalArgumentException("no workers for " + kind.label());
        }
        return group;
    }

    /** Ends every worker. */
    @Override
    public void close() {
        groups.values().forEach(WorkerGroup::close);
    }
}
