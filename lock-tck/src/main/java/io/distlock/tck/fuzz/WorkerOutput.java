package io.distlock.tck.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * What a worker printed during one run: whether it became ready, its summary line, the status it ended the run with,
 * its violation, error and hang lines, and a tail of the rest. A worker's output before its first run belongs to its
 * first run, so that a JVM that fails to start shows why.
 */
final class WorkerOutput {

    private static final int MAX_NOTABLE = 50;
    private static final int TAIL_LINES = 30;

    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final List<String> notable = new ArrayList<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private boolean readySeen;
    private @Nullable String summary;
    private @Nullable Integer status;

    /** Keeps one line of the worker's output. */
    synchronized void keep(String line) {
        if (line.startsWith(FuzzWorker.READY)) {
            readySeen = true;
            ready.countDown();
        } else if (line.startsWith(Tally.SUMMARY)) {
            summary = line;
        } else if (line.startsWith(FuzzWorker.DONE)) {
            status = Integer.valueOf(line.substring(FuzzWorker.DONE.length()).strip());
            done.countDown();
        } else if ((line.startsWith(Tally.VIOLATION)
                        || line.startsWith(Tally.ERROR)
                        || line.startsWith(FuzzWorker.HUNG))
                && notable.size() < MAX_NOTABLE) {
            notable.add(line);
        } else {
            tail.addLast(line);
            if (tail.size() > TAIL_LINES) {
                tail.removeFirst();
            }
        }
    }

    /** The worker's output has ended: nothing it has not printed yet will come, and no one must wait for it. */
    void ended() {
        ready.countDown();
        done.countDown();
    }

    /**
     * Waits until the worker is connected and waiting for the start signal.
     *
     * @return false if it did not get there in time, or its output ended first
     */
    boolean awaitReady(long deadlineNanos) throws InterruptedException {
        ready.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        synchronized (this) {
            return readySeen;
        }
    }

    /**
     * Waits until the worker has said how its run ended.
     *
     * @return the run's status, or null if the worker did not say so in time, or its output ended first
     */
    @Nullable
    Integer awaitDone(long deadlineNanos) throws InterruptedException {
        done.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        return status();
    }

    synchronized @Nullable Integer status() {
        return status;
    }

    synchronized @Nullable String summary() {
        return summary;
    }

    /** Violation, error and hang lines, up to 50. */
    synchronized List<String> notable() {
        return List.copyOf(notable);
    }

    synchronized List<String> tail() {
        return List.copyOf(tail);
    }
}
