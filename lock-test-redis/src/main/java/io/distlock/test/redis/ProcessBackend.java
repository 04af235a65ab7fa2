package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.distlock.tck.net.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * A redis-server child process of this JVM, from the PATH or extracted from embedded-redis; a plain server, or a
 * Sentinel.
 */
final class ProcessBackend implements RedisBackend {

    /** A bound, not a start-up time: a server that exits is seen at once, and a loaded machine is slow to answer. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration RESTART_PORT_WAIT = Duration.ofSeconds(5);
    private static final int PORT_ATTEMPTS = 5;

    private final RedisExecutable executable;
    private final ServerOptions options;
    private final IntSupplier freePorts;
    private final ServerDirectory directory;
    /** The Sentinel config file, or null for a plain server, which runs without one. */
    private final Path sentinelConfig;

    private int port;
    private Process process;
    private boolean stopped;

    private ProcessBackend(
            RedisExecutable executable,
            ServerOptions options,
            IntSupplier freePorts,
            ServerDirectory directory,
            Path sentinelConfig) {
        this.executable = executable;
        this.options = options;
        this.freePorts = freePorts;
        this.directory = directory;
        this.sentinelConfig = sentinelConfig;
    }

    static ProcessBackend start(RedisExecutable executable, ServerOptions options) {
        return start(executable, options, FreePorts::next);
    }

    /** Starts on a port from {@code freePorts}, which may need more than one free port per server. */
    static ProcessBackend start(RedisExecutable executable, ServerOptions options, IntSupplier freePorts) {
        return start(new ProcessBackend(executable, options, freePorts, ServerDirectory.create(), null));
    }

    /**
     * Starts redis-server in Sentinel mode with {@code sentinelConfig} as its config file. The file lives in the
     * server's own directory and is written only here: Sentinel records what it learns in it, and a {@link
     * #startAgain()} must find that, as a restarted production Sentinel would.
     */
    static ProcessBackend startSentinel(
            RedisExecutable executable, ServerOptions options, List<String> sentinelConfig) {
        ServerDirectory directory = ServerDirectory.create();
        Path config = directory.path().resolve("sentinel.conf");
        try {
            Files.write(config, sentinelConfig, UTF_8);
        } catch (IOException e) {
            directory.delete();
            throw new UncheckedIOException("Could not write " + config, e);
        }
        return start(new ProcessBackend(executable, options, FreePorts::next, directory, config));
    }

    private static ProcessBackend start(ProcessBackend backend) {
        try {
            backend.startOnFreePort();
            return backend;
        } catch (RuntimeException e) {
            backend.directory.delete();
            throw e;
        }
    }

    @Override
    public String host() {
        return FreePorts.LOOPBACK_HOST;
    }

    @Override
    public synchronized int port() {
        return port;
    }

    @Override
    public synchronized String description() {
        return label() + " on port " + port;
    }

    @Override
    public synchronized void kill() {
        destroy(requireRunning());
        process = null;
        PortProbe.awaitClosed(host(), port, STOP_TIMEOUT);
    }

    @Override
    public synchronized void startAgain() {
        if (stopped) {
            throw new IllegalStateException(description() + " was closed");
        }
        if (process != null) {
            throw new IllegalStateException(description() + " is still running; kill() it before startAgain()");
        }
        long deadline = System.nanoTime() + RESTART_PORT_WAIT.toNanos();
        while (true) {
            Optional<StartFailure> failure = launch();
            if (failure.isEmpty()) {
                return;
            }
            // The old socket can linger in the kernel for a moment although redis-server binds with SO_REUSEADDR.
            if (!failure.get().portTaken() || System.nanoTime() - deadline > 0) {
                throw failure.get().toException();
            }
            PortProbe.sleepPollInterval();
        }
    }

    @Override
    public synchronized void pause() {
        signal("STOP");
    }

    @Override
    public synchronized void resume() {
        signal("CONT");
    }

    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (process != null) {
            destroy(process);
            process = null;
        }
        directory.delete();
    }

    private void startOnFreePort() {
        for (int attempt = 1; ; attempt++) {
            port = freePorts.getAsInt();
            Optional<StartFailure> failure = launch();
            if (failure.isEmpty()) {
                return;
            }
            if (!failure.get().portTaken() || attempt == PORT_ATTEMPTS) {
                throw failure.get().toException();
            }
        }
    }

    /** Starts the process on {@link #port}; empty once it answers, otherwise why it did not. */
    private Optional<StartFailure> launch() {
        long logStart = directory.logSize();
        Process started;
        try {
            started = new ProcessBuilder(commandLine())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(directory.log().toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run " + executable.path(), e);
        }
        try {
            return awaitReady(started, logStart);
        } catch (RuntimeException e) {
            // Interrupted while waiting: the process is not ours to track yet, so it must not outlive this call.
            started.destroyForcibly();
            throw e;
        }
    }

    private Optional<StartFailure> awaitReady(Process started, long logStart) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (started.isAlive()) {
            if (PortProbe.isServedBy(host(), port, options.password(), started.pid())) {
                process = started;
                return Optional.empty();
            }
            if (System.nanoTime() - deadline > 0) {
                destroy(started);
                return Optional.of(failure("did not answer within " + START_TIMEOUT.toSeconds() + " s", logStart));
            }
            PortProbe.sleepPollInterval();
        }
        return Optional.of(failure("exited with code " + started.exitValue(), logStart));
    }

    /** The last lines of the server's log, to explain what a Sentinel did or did not do. */
    synchronized String logTail() {
        return directory.logTail(0);
    }

    private String label() {
        return sentinelConfig == null ? executable.label() : "Sentinel of " + executable.label();
    }

    private List<String> commandLine() {
        List<String> command = new ArrayList<>();
        command.add(executable.path().toString());
        if (sentinelConfig != null) {
            // redis-server takes a config file only as its first argument.
            command.add(sentinelConfig.toString());
            command.add("--sentinel");
        }
        command.addAll(List.of(
                "--port",
                Integer.toString(port),
                "--bind",
                host(),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                directory.path().toString(),
                "--daemonize",
                "no",
                // Protected mode guards exposed password-less servers; these throwaway ones must accept any client.
                "--protected-mode",
                "no"));
        command.addAll(options.redisArgs());
        return command;
    }

    private StartFailure failure(String reason, long logStart) {
        return new StartFailure(
                label() + " on port " + port + " " + reason + "; last lines of " + directory.log() + ":",
                directory.logTail(logStart));
    }

    private Process requireRunning() {
        if (process == null) {
            throw new IllegalStateException(description() + " is not running");
        }
        return process;
    }

    /** Sends a POSIX signal via kill(1), because the JDK can only send SIGTERM and SIGKILL. */
    private void signal(String signal) {
        if (Os.isWindows()) {
            throw new UnsupportedOperationException(
                    "pause() and resume() send SIGSTOP/SIGCONT to redis-server, and Windows has no such signals");
        }
        long pid = requireRunning().pid();
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish");
            }
            if (kill.exitValue() != 0) {
                try (InputStream output = kill.getInputStream()) {
                    throw new IllegalStateException(
                            "kill -" + signal + " " + pid + " failed: " + new String(output.readAllBytes(), UTF_8));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + pid, e);
        }
    }

    private static void destroy(Process process) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        "redis-server " + process.pid() + " survived SIGKILL for " + STOP_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "Interrupted while waiting for redis-server " + process.pid() + " to die", e);
        }
    }

    /** Why a start failed, with the server's own words from its log. */
    private record StartFailure(String reason, String logTail) {

        boolean portTaken() {
            return logTail.contains("Address already in use");
        }

        IllegalStateException toException() {
            return new IllegalStateException(reason + "\n" + logTail);
        }
    }
}
