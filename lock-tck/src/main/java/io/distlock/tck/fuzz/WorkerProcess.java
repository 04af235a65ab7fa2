package io.distlock.tck.fuzz;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FuzzWorker} child JVM on the test classpath. Its output is drained continuously so it never blocks on a full
 * pipe: the ready line, the summary line and the violation, error and hang lines are kept, and a tail of the rest.
 */
final class WorkerProcess {

    private static final int MAX_NOTABLE = 50;
    private static final int TAIL_LINES = 30;

    private final int number;
    private final Process process;
    private final Thread drain;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final List<String> notable = new ArrayList<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private boolean readySeen;
    private String summary;

    private WorkerProcess(int number, Process process) {
        this.number = number;
        this.process = process;
        this.drain = new Thread(this::drain, "fuzz-drain-" + number);
        drain.setDaemon(true);
    }

    static WorkerProcess start(WorkerConfig config) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Two cores are shared by all workers and the servers: a small heap and one GC thread keep pauses
                // short.
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                FuzzWorker.class.getName()));
        command.addAll(config.toArgs());
        try {
            WorkerProcess worker = new WorkerProcess(
                    config.process(),
                    new ProcessBuilder(command).redirectErrorStream(true).start());
            worker.drain.start();
            return worker;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start fuzz worker " + config.process(), e);
        }
    }

    /**
     * Waits until the worker is connected and waiting for the start signal.
     *
     * @return false if it did not get there in time, or ended first
     */
    boolean awaitReady(long deadlineNanos) throws InterruptedException {
        ready.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        synchronized (this) {
            return readySeen;
        }
    }

    /**
     * Waits for the worker to exit and its output to be drained.
     *
     * @return its exit status
     * @throws IllegalStateException if it did not exit in time
     */
    int awaitExit(long deadlineNanos) throws InterruptedException {
        if (!process.waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("fuzz worker " + number + " did not exit in time; last output: " + tail());
        }
        drain.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    synchronized String summary() {
        if (summary == null) {
            throw new IllegalStateException("fuzz worker " + number + " printed no summary; last output: " + tail());
        }
        return summary;
    }

    /** Violation, error and hang lines, up to 50. */
    synchronized List<String> notable() {
        return List.copyOf(notable);
    }

    synchronized List<String> tail() {
        return List.copyOf(tail);
    }

    private void drain() {
        try (BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null) {
                keep(line);
            }
        } catch (IOException e) {
            keep("(output of worker " + number + " ended: " + e + ")");
        } finally {
            // A worker that ended before it was ready must not be waited for.
            ready.countDown();
        }
    }

    private synchronized void keep(String line) {
        if (line.startsWith(FuzzWorker.READY)) {
            readySeen = true;
            ready.countDown();
        } else if (line.startsWith(Tally.SUMMARY)) {
            summary = line;
        } else if ((line.startsWith(Tally.VIOLATION)
                        || line.startsWith(Tally.ERROR)
                        || line.startsWith(FuzzWorker.HUNG))
                && notable.size() < MAX_NOTABLE) {
            notable.add("worker " + number + ": " + line);
        } else {
            tail.addLast(line);
            if (tail.size() > TAIL_LINES) {
                tail.removeFirst();
            }
        }
    }

    /** Kills the worker if it still runs. Not AutoCloseable: a close that throws InterruptedException is not one. */
    void close() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
}
