package io.distlock.bench.worker;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.ContenderTarget;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One {@link WorkerGroup} per contender, all started before any measurement so that no JVM boots while another
 * contender is measured. The groups boot one after the other: forty-odd JVMs booting at once on a small machine took
 * more than two minutes each and left most contenders out of a full run.
 *
 * <p>A contender whose workers cannot start, for example because it cannot lock on the target at all, is left out and
 * remembered with its reason, so that the results report it instead of silently dropping it.
 */
public final class WorkerPool implements AutoCloseable {

    private final Map<ContenderKind, WorkerGroup> groups = new LinkedHashMap<>();
    private final Map<ContenderKind, WorkerFailedException> unavailable = new LinkedHashMap<>();

    private WorkerPool() {}

    /**
     * Starts the workers of every contender, one contender after the other, each once the one before is connected or
     * has failed.
     *
     * @param processes how many worker processes each contender needs
     * @param targets what each contender locks on
     * @param jvmArgs the workers' JVM options
     * @param logDirectory where the workers' logs go
     * @return the pool, with the contenders that could start
     * @throws InterruptedException if interrupted while waiting
     * @throws IllegalStateException if no contender could start, with the first one's failure
     */
    public static WorkerPool start(
            Map<ContenderKind, Integer> processes,
            Function<ContenderKind, ContenderTarget> targets,
            List<String> jvmArgs,
            Path logDirectory)
            throws InterruptedException {
        WorkerPool pool = new WorkerPool();
        try {
            for (Map.Entry<ContenderKind, Integer> kind : processes.entrySet()) {
                WorkerGroup group = WorkerGroup.start(
                        kind.getKey(), kind.getValue(), targets.apply(kind.getKey()), jvmArgs, logDirectory);
                pool.groups.put(kind.getKey(), group);
                try {
                    group.awaitReady();
                } catch (WorkerFailedException e) {
                    pool.unavailable.put(kind.getKey(), e);
                    pool.groups.remove(kind.getKey());
                    group.close();
                }
            }
            if (pool.groups.isEmpty()) {
                throw new IllegalStateException(
                        "No contender could start",
                        pool.unavailable.values().iterator().next());
            }
            return pool;
        } catch (RuntimeException | InterruptedException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * Whether a contender's workers are running.
     *
     * @param kind the contender
     * @return false if it was not asked for or could not start
     */
    public boolean has(ContenderKind kind) {
        return groups.containsKey(kind);
    }

    /**
     * The contenders whose workers could not start, with what went wrong.
     *
     * @return the failures, by contender, in the order they were asked for
     */
    public Map<ContenderKind, WorkerFailedException> unavailable() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(unavailable));
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
