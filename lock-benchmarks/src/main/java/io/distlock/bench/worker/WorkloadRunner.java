package io.distlock.bench.worker;

import com.sun.management.OperatingSystemMXBean;
import io.distlock.bench.contender.Contender;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.data.redis.core.ValueOperations;

/** Runs one workload on one contender in this process: starts its threads together, stops them, adds up. */
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
        };
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
        WorkloadResult threadsTogether =
                WorkloadResult.merge(loops.stream().map(LockLoop::result).toList());
        return new WorkloadResult(
                threadsTogether.acquisitions(),
                threadsTogether.timeouts(),
                section.violations(threadsTogether.acquisitions()),
                threadsTogether.failures(),
                endNanos - startNanos,
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
