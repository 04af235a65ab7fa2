package io.distlock.sample.inventory.demo;

import io.distlock.sample.inventory.redis.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One instance of the inventory application with the {@code demo} profile, running in a JVM of its own on a free port,
 * its output in a file.
 */
public final class AppInstance implements AutoCloseable {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final int LOG_TAIL_LINES = 40;

    private final String name;
    private final Process process;
    private final URI baseUri;
    private final Path log;
    private final long startedNanos = System.nanoTime();

    private AppInstance(String name, Process process, URI baseUri, Path log) {
        this.name = name;
        this.process = process;
        this.baseUri = baseUri;
        this.log = log;
    }

    /**
     * Starts the instance and returns at once; see {@link #awaitReady}.
     *
     * @param redisArguments the command-line arguments that point the instance at its Redis, such as {@code
     *     --spring.data.redis.url=redis://127.0.0.1:6380}
     */
    public static AppInstance start(AppCommand command, String name, List<String> redisArguments, Path logDirectory) {
        int port = FreePorts.next();
        Path log = logDirectory.resolve(name + ".log");
        // The demo profile serves the unprotected endpoint, whose race the demo shows.
        List<String> commandLine = new ArrayList<>(
                command.with("--server.port=" + port, "--server.address=127.0.0.1", "--spring.profiles.active=demo"));
        commandLine.addAll(redisArguments);
        try {
            Process process = new ProcessBuilder(commandLine)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new AppInstance(name, process, URI.create("http://127.0.0.1:" + port), log);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name + " with " + commandLine, e);
        }
    }

    /**
     * Waits until the instance answers HTTP.
     *
     * @throws IllegalStateException if it exits or does not answer in time, with the end of its log
     */
    public void awaitReady(HttpClient http, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest probe = HttpRequest.newBuilder(baseUri.resolve("/stock/readiness-probe"))
                .timeout(Duration.ofSeconds(2))
                .build();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        name + " exited with code " + process.exitValue() + " before it was ready. " + logTail());
            }
            try {
                http.send(probe, HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException notListeningYet) {
                Thread.sleep(POLL_INTERVAL.toMillis());
            }
        }
        throw new IllegalStateException(name + " did not answer HTTP within " + timeout + ". " + logTail());
    }

    public String name() {
        return name;
    }

    public URI baseUri() {
        return baseUri;
    }

    public long pid() {
        return process.pid();
    }

    public Duration sinceStart() {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /** Stops the JVM, forcibly if it does not exit within a few seconds. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "Last lines of " + log + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "Its log " + log + " could not be read: " + e.getMessage();
        }
    }
}
