package io.distlock.bench.worker;

import io.distlock.bench.contender.AsyncContender;
import io.distlock.bench.contender.AsyncContender.AsyncRelease;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * One chain of asynchronous acquisitions, the non-blocking counterpart of a {@link LockLoop} thread: acquire, run the
 * critical section and release from the acquisition's completion, then start the next acquisition from the release's
 * completion, until told to stop. No thread waits for the lock or the release, so a workload of n threads keeps n
 * acquisitions in flight with no thread per acquisition.
 *
 * <p>The steps of one chain run one after another, each started by the completion of the one before, so its counters
 * need no synchronization; they are read only after the chain counted down its end.
 */
final class AsyncLockLoop {

    /** After a failed acquire, a chain pauses so that a broken backend does not turn into a hot loop. */
    private static final long FAILURE_PAUSE_MILLIS = 10;

    private final int index;
    private final Workload workload;
    private final AsyncContender contender;
    private final CriticalSection section;
    private final AtomicBoolean stop;
    private final ScheduledExecutorService pauses;
    private final CountDownLatch ended;

    private final Histogram acquireNanos = WorkloadResult.newHistogram();
    private final Histogram cycleNanos = WorkloadResult.newHistogram();
    private long sequence;
    private long acquisitions;
    private long timeouts;
    private long failures;
    private String firstFailure = "-";
    private long endNanos;

    /**
     * Creates the chain.
     *
     * @param index the chain's number, which picks its keys as a thread's number does
     * @param workload what to take
     * @param contender the lock under test
     * @param section what to run while holding the lock; it must not block, since it runs in a completion
     * @param stop set when no new acquisition may start
     * @param pauses where a chain waits out the pause after a failure, without a thread of its own
     * @param ended counted down once when the chain ends
     */
    AsyncLockLoop(
            int index,
            Workload workload,
            AsyncContender contender,
            CriticalSection section,
            AtomicBoolean stop,
            ScheduledExecutorService pauses,
            CountDownLatch ended) {
        this.index = index;
        this.workload = workload;
        this.contender = contender;
        this.section = section;
        this.stop = stop;
        this.pauses = pauses;
        this.ended = ended;
    }

    /** Starts the chain's first acquisition and returns at once. */
    void start() {
        next();
    }

    private void next() {
        if (stop.get()) {
            endNanos = System.nanoTime();
            ended.countDown();
            return;
        }
        String key = workload.keyFor(index, sequence++);
        long begin = System.nanoTime();
        CompletionStage<@Nullable AsyncRelease> acquiring;
        try {
            acquiring = contender.tryAcquireAsync(key, workload.lease(), workload.maxWait());
        } catch (RuntimeException e) {
            failedThenPause(e);
            return;
        }
        acquiring.whenComplete((release, failure) -> acquired(begin, release, failure));
    }

    private void acquired(long begin, @Nullable AsyncRelease release, @Nullable Throwable failure) {
        if (failure != null) {
            failedThenPause(failure);
            return;
        }
        long acquired = System.nanoTime();
        if (release == null) {
            timeouts++;
            next();
            return;
        }
        acquisitions++;
        acquireNanos.recordValue(Math.min(acquired - begin, WorkloadResult.MAX_TRACKED_NANOS));
        try {
            section.run();
        } catch (RuntimeException e) {
            failed(e);
        }
        CompletionStage<?> releasing;
        try {
            releasing = release.release();
        } catch (RuntimeException e) {
            releasing = CompletableFuture.failedFuture(e);
        }
        releasing.whenComplete((released, releaseFailure) -> {
            if (releaseFailure != null) {
                failed(releaseFailure);
            }
            cycleNanos.recordValue(Math.min(System.nanoTime() - begin, WorkloadResult.MAX_TRACKED_NANOS));
            next();
        });
    }

    private void failedThenPause(Throwable failure) {
        failed(failure);
        pauses.schedule(this::next, FAILURE_PAUSE_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void failed(Throwable failure) {
        failures++;
        if ("-".equals(firstFailure)) {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            firstFailure = cause.toString();
        }
    }

    long endNanos() {
        return endNanos;
    }

    /** This chain's share of the result, like a {@link LockLoop} thread's. */
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
                WorkloadResult.newHistogram(),
                0);
    }
}
