package io.distlock.sample.inventory.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Stream;
import redis.embedded.core.ExecutableProvider;

/**
 * A redis-server process from the binary bundled in the {@code embedded-redis} jar, on a free loopback port, without
 * persistence. It lets the sample run on a machine that has only a JDK.
 *
 * <p>Only the jar's binary is used, not its server class: that class stops the server from a JVM shutdown hook of its
 * own, which races with the application's shutdown, so Redis could vanish under requests that are still finishing.
 * Here the owner decides when the server stops: the Spring context after everything that uses Redis, or the demo.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final int START_ATTEMPTS = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(20);
    /** Printed by redis-server once it listens; "Ready to accept connections tcp" since Redis 7. */
    private static final String READY = "Ready to accept connections";

    private final Process process;
    private final Path directory;
    private final int port;

    private EmbeddedRedis(Process process, Path directory, int port) {
        this.process = process;
        this.directory = directory;
        this.port = port;
    }

    /**
     * Starts a server and returns once it accepts connections.
     *
     * @throws IllegalStateException if no server could be started, with the end of its log
     */
    public static EmbeddedRedis start() {
        return start(FreePorts::next, List.of());
    }

    /**
     * Starts a server with cluster mode on, not yet part of any cluster; {@link EmbeddedRedisCluster} forms one of
     * them. Its cluster bus listens on its port plus 10000.
     *
     * @throws IllegalStateException if no server could be started, with the end of its log
     */
    static EmbeddedRedis startClusterNode() {
        // The node's cluster state file goes to its own directory (--dir), which close() deletes.
        return start(
                FreePorts::nextWithClusterBus,
                List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"));
    }

    private static EmbeddedRedis start(IntSupplier ports, List<String> extraArguments) {
        File binary = extractBinary();
        IllegalStateException lastFailure = null;
        // The free port can be taken by another process before redis-server binds it; a new port then works.
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return startOn(binary, ports.getAsInt(), extraArguments);
            } catch (IllegalStateException e) {
                lastFailure = e;
            }
        }
        throw lastFailure;
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://" + HOST + ":" + port;
    }

    /**
     * Stops the server, forcibly if it does not exit within a few seconds, and deletes its directory. Calling it again
     * does nothing.
     */
    @Override
    public void close() {
        stop(process);
        deleteDirectory(directory);
    }

    private static EmbeddedRedis startOn(File binary, int port, List<String> extraArguments) {
        Path directory = createDirectory();
        Path log = directory.resolve("redis.log");
        List<String> command = new ArrayList<>(List.of(
                binary.getPath(),
                "--port",
                Integer.toString(port),
                "--bind",
                HOST,
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                directory.toString()));
        command.addAll(extraArguments);
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            deleteDirectory(directory);
            throw new IllegalStateException("Could not run " + binary, e);
        }
        try {
            awaitReady(process, log, port);
            return new EmbeddedRedis(process, directory, port);
        } catch (RuntimeException e) {
            stop(process);
            deleteDirectory(directory);
            throw e;
        }
    }

    /** Reads the server's own log rather than probing the port, which another process might have taken meanwhile. */
    private static void awaitReady(Process process, Path log, int port) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String output = read(log);
            if (output.contains(READY)) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "The embedded redis-server exited before it listened on port " + port + ":\n" + output);
            }
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while the embedded redis-server was starting", e);
            }
        }
        throw new IllegalStateException("The embedded redis-server did not listen on port " + port + " within "
                + START_TIMEOUT + ":\n" + read(log));
    }

    private static File extractBinary() {
        try {
            return ExecutableProvider.newJarResourceProvider().get();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not extract redis-server from the embedded-redis jar", e);
        }
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static Path createDirectory() {
        try {
            return Files.createTempDirectory("inventory-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a directory for the embedded redis-server", e);
        }
    }

    private static void deleteDirectory(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // A leftover file in the temp directory is not worth failing a shutdown for.
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
