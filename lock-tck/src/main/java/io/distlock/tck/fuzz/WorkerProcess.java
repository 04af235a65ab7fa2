package io.distlock.tck.fuzz;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FuzzWorker} child JVM on the test class path, which serves one run after another: {@link #begin} hands it a
 * run's {@link WorkerConfig} on its standard input. Its output is drained continuously so it never blocks on a full
 * pipe, into the {@link WorkerOutput} of the run it serves.
 */
final class WorkerProcess {

    private static final AtomicInteger STARTED = new AtomicInteger();

    private final int number;
    private final Process process;
    private final Writer requests;
    private final Thread drain;
    private WorkerOutput output = new WorkerOutput();
    private boolean begun;
    private boolean outputEnded;

    private WorkerProcess(int number, Process process) {
        this.number = number;
        this.process = process;
        this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.drain = new Thread(this::drain, "fuzz-drain-" + number);
        drain.setDaemon(true);
    }

    /** Starts a worker JVM, which waits for its first run. */
    static WorkerProcess start() {
        int number = STARTED.incrementAndGet();
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Two cores are shared by all workers and the servers: a small heap and one GC thread keep pauses
                // short.
                "-Xmx256m",
                "-XX:+UseSerialGC",
                // C1 only, although workers now live for many runs: C2's compiles cost more CPU than they save in a
                // test class's minute of runs. MutualExclusionFuzzTest alone (5 runs, 2 workers, load 2-6 on two
                // cores): 35.5 and 35.7 CPU s for the class with C1 only, 51.0 and 48.2 with C2 as well, and 262 to
                // 635 acquisitions/s per run with C1 only against 195 to 541 with C2.
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                FuzzWorker.class.getName());
        try {
            WorkerProcess worker = new WorkerProcess(
                    number,
                    new ProcessBuilder(command).redirectErrorStream(true).start());
            worker.drain.start();
            return worker;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start fuzz worker JVM " + number, e);
        }
    }

    /**
     * Hands the worker a run; what it prints from now on is that run's output.
     *
     * @throws UncheckedIOException if the worker no longer reads its runs
     */
    void begin(WorkerConfig config) {
        synchronized (this) {
            if (begun) {
                output = new WorkerOutput();
            }
            begun = true;
            if (outputEnded) {
                // It died between runs: its new run must not be waited for either.
                output.ended();
            }
        }
        try {
            requests.write(config.toLine() + "\n");
            requests.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("fuzz worker JVM " + number + " took no run; last output: " + tail(), e);
        }
    }

    /**
     * Waits until the worker is connected and waiting for the run's start signal.
     *
     * @return false if it did not get there in time, or ended first
     */
    boolean awaitReady(long deadlineNanos) throws InterruptedException {
        return output().awaitReady(deadlineNanos);
    }

    /**
     * Waits until the worker has ended its run: said how, or exited.
     *
     * @return the run's status as the worker said it, or else its exit status
     * @throws IllegalStateException if it did neither in time
     */
    int awaitEnd(long deadlineNanos) throws InterruptedException {
        WorkerOutput run = output();
        Integer status = run.awaitDone(deadlineNanos);
        if (status != null) {
            return status;
        }
        if (!process.waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException(
                    "fuzz worker JVM " + number + " did not end its run in time; last output: " + run.tail());
        }
        drain.join(TimeUnit.SECONDS.toMillis(10));
        status = run.status();
        return status != null ? status : process.exitValue();
    }

    /**
     * The run's summary line.
     *
     * @throws IllegalStateException if the worker printed none
     */
    String summary() {
        String summary = output().summary();
        if (summary == null) {
            throw new IllegalStateException(
                    "fuzz worker JVM " + number + " printed no summary; last output: " + tail());
        }
        return summary;
    }

    /** The run's violation, error and hang lines, up to 50, each marked with the run's {@code process}. */
    List<String> notable(int process) {
        return output().notable().stream()
                .map(line -> "worker " + process + ": " + line)
                .toList();
    }

    /** The last lines of the run's other output. */
    List<String> tail() {
        return output().tail();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Tells an idle worker to exit, as its parent's end would: it exits once it has read all its runs. */
    void endRequests() {
        try {
            requests.close();
        } catch (IOException e) {
            // The worker is gone already; either way it reads no more runs.
        }
    }

    /** Waits for the worker to exit, and kills it if it has not by {@code deadlineNanos}. */
    void awaitExitOrKill(long deadlineNanos) throws InterruptedException {
        if (!process.waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            close();
        }
    }

    /** Kills the worker if it still runs. Not AutoCloseable: a close that throws InterruptedException is not one. */
    void close() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    private synchronized WorkerOutput output() {
        return output;
    }

    private void drain() {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output().keep(line);
            }
        } catch (IOException e) {
            output().keep("(output of fuzz worker JVM " + number + " ended: " + e + ")");
        } finally {
            // A worker that ended before it was ready, or before it said how its run ended, must not be waited for.
            synchronized (this) {
                outputEnded = true;
                output.ended();
            }
        }
    }
}
