package io.distlock.tck.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM that runs one main class on the class path of the test JVM, as another process of a test. Its output
 * (standard output and error together) is drained continuously, so that it never blocks on a full pipe, and read as
 * lines: the test waits for the line that starts with a given prefix, such as the ready line a child prints once it is
 * connected, and measures from the moment that line arrived ({@link ChildLine#receivedNanos()}), never from the start
 * of the process, which a loaded machine can delay by tens of seconds.
 *
 * <p>Closing kills the child if it still runs.
 */
public final class ChildJvm implements AutoCloseable {

    /**
     * How long a child may take to print an awaited line: long enough for the start of a JVM and its first connection
     * on a machine of two cores busy with a whole build, which can take a minute; a child that ends first fails the
     * wait at once.
     */
    public static final Duration LINE_WAIT = Duration.ofMinutes(3);

    /**
     * A small heap and one GC thread keep a child's pauses short beside the others on two cores; the client compiler
     * alone and the shared class archive cut its start-up.
     */
    private static final List<String> JVM_OPTIONS =
            List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    /** How long a killed child may take to be gone. */
    private static final Duration EXIT_WAIT = Duration.ofSeconds(30);

    private static final int TAIL_LINES = 40;

    /** Lines not yet awaited, at most this many; a chatty child that nobody reads loses its oldest. */
    private static final int MAX_UNREAD = 10_000;

    private final String name;
    private final Process process;
    private final Writer input;
    private final Thread drain;
    private final Object lines = new Object();
    private final Deque<ChildLine> unread = new ArrayDeque<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private boolean outputEnded;

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.drain = new Thread(this::drain, "drain-" + name);
        drain.setDaemon(true);
    }

    /**
     * Starts {@code main} in a new JVM on this JVM's class path.
     *
     * @param main the class whose {@code main} method the child runs
     * @param args its arguments
     * @return the running child
     * @throws UncheckedIOException if the JVM could not be started
     */
    public static ChildJvm start(Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            ChildJvm child = new ChildJvm(main.getSimpleName() + "-" + process.pid(), process);
            child.drain.start();
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start a JVM for " + main.getName(), e);
        }
    }

    /**
     * Waits up to {@link #LINE_WAIT} for the next line that starts with {@code prefix}; the lines before it are
     * skipped.
     *
     * @param prefix how the line starts
     * @return the line, and when it arrived
     * @throws AssertionError with the child's last output, if it ended or the wait ran out before such a line
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    public ChildLine awaitLine(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + LINE_WAIT.toNanos();
        synchronized (lines) {
            while (true) {
                while (!unread.isEmpty()) {
                    ChildLine next = unread.removeFirst();
                    if (next.text().startsWith(prefix)) {
                        return next;
                    }
                }
                if (outputEnded) {
                    // Its output ends as it dies; its exit status follows a moment later.
                    process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    throw failure("ended without a line starting with \"" + prefix + "\"");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw failure("printed no line starting with \"" + prefix + "\" within " + LINE_WAIT);
                }
                lines.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
        }
    }

    /**
     * Sends the child a line on its standard input.
     *
     * @param line the line, without a line break
     * @throws UncheckedIOException if the child no longer reads its input
     */
    public void send(String line) {
        try {
            input.write(line + "\n");
            input.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("could not send \"" + line + "\" to " + name, e);
        }
    }

    /**
     * The child's process id.
     *
     * @return the id
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Kills the child with {@code SIGKILL}, as a crash would end it: it runs no more code, not even shutdown hooks.
     * Returns once it is gone.
     *
     * @throws AssertionError if it was still there after 30 seconds
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw failure("was still running " + EXIT_WAIT + " after SIGKILL");
        }
    }

    /**
     * Waits up to {@link #LINE_WAIT} for the child to exit by itself, and for the rest of its output.
     *
     * @return its exit status
     * @throws AssertionError with the child's last output, if it still ran after the wait
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    public int awaitExit() throws InterruptedException {
        if (!process.waitFor(LINE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw failure("did not exit within " + LINE_WAIT);
        }
        drain.join(EXIT_WAIT.toMillis());
        return process.exitValue();
    }

    /** Kills the child if it still runs, and waits up to 30 seconds for it to be gone. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The child's name, its main class and process id.
     *
     * @return for example {@code HolderChild-4711}
     */
    @Override
    public String toString() {
        return name;
    }

    private void drain() {
        try (BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null) {
                keep(new ChildLine(line, System.nanoTime()));
            }
        } catch (IOException e) {
            keep(new ChildLine("(output ended: " + e + ")", System.nanoTime()));
        } finally {
            synchronized (lines) {
                outputEnded = true;
                lines.notifyAll();
            }
        }
    }

    private void keep(ChildLine line) {
        synchronized (lines) {
            unread.addLast(line);
            if (unread.size() > MAX_UNREAD) {
                unread.removeFirst();
            }
            tail.addLast(line.text());
            if (tail.size() > TAIL_LINES) {
                tail.removeFirst();
            }
            lines.notifyAll();
        }
    }

    private AssertionError failure(String what) {
        String status = process.isAlive() ? "still running" : "exit status " + process.exitValue();
        synchronized (lines) {
            return new AssertionError("child JVM " + name + " " + what + " (" + status + "); its last " + tail.size()
                    + " lines:\n" + String.join("\n", tail));
        }
    }
}
