package io.distlock.bench.worker;

import com.sun.management.OperatingSystemMXBean;
import io.distlock.bench.contender.AsyncContender;
import io.distlock.bench.contender.Contender;
import io.distlock.bench.contender.ContenderKind;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.data.redis.core.ValueOperations;

/**
 * Runs one workload on one contender in this process: starts its threads together (for a non-blocking contender, its
 * chains of acquisitions), stops them, adds up.
 */
final class WorkloadRunner {

    /** How long threads may take to finish after the stop, beyond their own wait, before the run counts as hung. */
    private static final long DRAIN_MARGIN_MILLIS = TimeUnit.SECONDS.toMillis(30);

    private static final OperatingSystemMXBean PROCESS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final Contender contender;
    private final ValueOperations<String, String> checkRedis;

    /** Trees whose locks this process holds: the warm-up takes them, and the trials in the same tree find them held. */
    private final Set<String> heldTrees = new HashSet<>();

    /**
     * Creates the runner.
     *
     * @param contender the lock under test
     * @param checkRedis a connection of the harness's own for the cross-process check, apart from the contender's
     */
    WorkloadRunner(Contender contender, ValueOperations<String, String> checkRedis) {
        this.contender = contender;
        this.checkRedis = checkRedis;
    }

    WorkloadResult run(Workload workload) throws InterruptedException {
        if (workload.held() > 0 && !heldTrees.contains(workload.key())) {
            contender.hold(workload.heldKeys(), Workload.HELD_LEASE);
            heldTrees.add(workload.key());
        }
        CriticalSection section = switch (workload.check()) {
            case NONE -> CriticalSection.NONE;
            case IN_PROCESS -> new ExclusionCheck(null, workload.key());
            case IN_PROCESS_AND_REDIS -> new ExclusionCheck(checkRedis, workload.key() + ":inside");
            case READ_WRITE -> new ReadWriteCheck(checkRedis, workload.key() + ":inside");
            case PERMITS -> new PermitCheck(checkRedis, workload.key() + ":inside", ContenderKind.SEMAPHORE_PERMITS);
        };
        return contender instanceof AsyncContender async
                ? runChains(workload, async, section)
                : runThreads(workload, section);
    }

    private WorkloadResult runThreads(Workload workload, CriticalSection section) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        List<LockLoop> loops = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < workload.threads(); i++) {
            LockLoop loop = new LockLoop(i, workload, contender, section, start, stop);
            Thread thread = new Thread(loop, "bench-" + i);
            loops.add(loop);
            threads.add(thread);
            thread.start();
        }
        TimeUnit.MILLISECONDS.sleep(Math.max(0, workload.startEpochMillis() - System.currentTimeMillis()));
        long startNanos = System.nanoTime();
        long startCpuNanos = PROCESS.getProcessCpuTime();
        start.countDown();
        TimeUnit.NANOSECONDS.sleep(workload.duration().toNanos());
        stop.set(true);
        long joinDeadline = System.currentTimeMillis() + workload.maxWait().toMillis() + DRAIN_MARGIN_MILLIS;
        for (Thread thread : threads) {
            thread.join(Math.max(1, joinDeadline - System.currentTimeMillis()));
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not finish within its wait after the stop");
            }
        }
        long cpuNanos = PROCESS.getProcessCpuTime() - startCpuNanos;
        long endNanos = loops.stream().mapToLong(LockLoop::endNanos).max().orElse(startNanos);
        return together(section, loops.stream().map(LockLoop::result).toList(), endNanos - startNanos, cpuNanos);
    }

    /**
     * Keeps as many acquisitions in flight as the workload has threads, each chain starting its next acquisition from
     * the completion of its last, with no thread of this process waiting for any of them.
     */
    private WorkloadResult runChains(Workload workload, AsyncContender async, CriticalSection section)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(workload.threads());
        ScheduledExecutorService pauses = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "bench-pauses");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<AsyncLockLoop> chains = new ArrayList<>();
            for (int i = 0; i < workload.threads(); i++) {
                chains.add(new AsyncLockLoop(i, workload, async, section, stop, pauses, ended));
            }
            TimeUnit.MILLISECONDS.sleep(Math.max(0, workload.startEpochMillis() - System.currentTimeMillis()));
            long startNanos = System.nanoTime();
            long startCpuNanos = PROCESS.getProcessCpuTime();
            chains.forEach(AsyncLockLoop::start);
            TimeUnit.NANOSECONDS.sleep(workload.duration().toNanos());
            stop.set(true);
            if (!ended.await(workload.maxWait().toMillis() + DRAIN_MARGIN_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(ended.getCount() + " of " + workload.threads()
                        + " acquisition chains did not finish within their wait after the stop");
            }
            long cpuNanos = PROCESS.getProcessCpuTime() - startCpuNanos;
            long endNanos =
                    chains.stream().mapToLong(AsyncLockLoop::endNanos).max().orElse(startNanos);
            return together(
                    section, chains.stream().map(AsyncLockLoop::result).toList(), endNanos - startNanos, cpuNanos);
        } finally {
            pauses.shutdownNow();
        }
    }

    private static WorkloadResult together(
            CriticalSection section, List<WorkloadResult> loops, long elapsedNanos, long cpuNanos) {
        WorkloadResult threadsTogether = WorkloadResult.merge(loops);
        return new WorkloadResult(
                threadsTogether.acquisitions(),
                threadsTogether.timeouts(),
                section.violations(threadsTogether.acquisitions()),
                threadsTogether.failures(),
                elapsedNanos,
                threadsTogether.acquireNanos(),
                threadsTogether.cycleNanos(),
                threadsTogether.firstFailure(),
                threadsTogether.perThread(),
                cpuNanos,
                List.of(),
                threadsTogether.readAcquireNanos(),
                section.mostReadersInside());
    }
}
