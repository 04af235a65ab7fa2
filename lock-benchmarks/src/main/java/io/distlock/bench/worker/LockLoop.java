package io.distlock.bench.worker;

import io.distlock.bench.contender.Contender;
import io.distlock.bench.contender.Contender.Release;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;

/**
 * One benchmark thread: acquire, run the critical section, release, record, until told to stop. Its counters are read
 * only after the thread ended.
 */
final class LockLoop implements Runnable {

    /** After a failed acquire, a thread pauses so that a broken backend does not turn into a hot loop. */
    private static final long FAILURE_PAUSE_MILLIS = 10;

    private final int index;
    private final Workload workload;
    private final Contender contender;
    private final CriticalSection section;
    private final CountDownLatch start;
    private final AtomicBoolean stop;

    private final Histogram acquireNanos = WorkloadResult.newHistogram();
    private final Histogram readAcquireNanos = WorkloadResult.newHistogram();
    private final Histogram cycleNanos = WorkloadResult.newHistogram();
    private long acquisitions;
    private long timeouts;
    private long failures;
    private String firstFailure = "-";
    private long endNanos;

    LockLoop(
            int index,
            Workload workload,
            Contender contender,
            CriticalSection section,
            CountDownLatch start,
            AtomicBoolean stop) {
        this.index = index;
        this.workload = workload;
        this.contender = contender;
        this.section = section;
        this.start = start;
        this.stop = stop;
    }

    @Override
    public void run() {
        try {
            start.await();
            long sequence = 0;
            while (!stop.get()) {
                once(workload.keyFor(index, sequence++));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            endNanos = System.nanoTime();
        }
    }

    private void once(String key) throws InterruptedException {
        boolean read = workload.check() == Workload.Check.READ_WRITE
                && ThreadLocalRandom.current().nextDouble() < Workload.Check.READ_SHARE;
        long begin = System.nanoTime();
        Release release;
        try {
            release = read
                    ? contender.tryAcquireRead(key, workload.lease(), workload.maxWait())
                    : contender.tryAcquire(key, workload.lease(), workload.maxWait());
        } catch (RuntimeException e) {
            failed(e);
            TimeUnit.MILLISECONDS.sleep(FAILURE_PAUSE_MILLIS);
            return;
        }
        long acquired = System.nanoTime();
        if (release == null) {
            timeouts++;
            return;
        }
        acquisitions++;
        long waited = Math.min(acquired - begin, WorkloadResult.MAX_TRACKED_NANOS);
        acquireNanos.recordValue(waited);
        if (read) {
            readAcquireNanos.recordValue(waited);
        }
        try {
            if (read) {
                section.runShared();
            } else {
                section.run();
            }
        } catch (RuntimeException e) {
            failed(e);
        }
        try {
            release.release();
        } catch (RuntimeException e) {
            failed(e);
        }
        cycleNanos.recordValue(Math.min(System.nanoTime() - begin, WorkloadResult.MAX_TRACKED_NANOS));
    }

    private void failed(RuntimeException e) {
        failures++;
        if ("-".equals(firstFailure)) {
            firstFailure = e.toString();
        }
    }

    long endNanos() {
        return endNanos;
    }

    /** This thread's share of the result; the elapsed time and violations are filled in for the whole process. */
    WorkloadResult result() {
        return new WorkloadResult(
                acquisitions,
                timeouts,
                0,
                failures,
                0,
                acquireNanos,
                cycleNanos,
                firstFailure,
                List.of(acquisitions),
                0,
                List.of(),
                readAcquireNanos,
                0);
    }
}
