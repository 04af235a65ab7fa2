package io.distlock.sample.inventory.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Several instances of the inventory application against one Redis (or Redis Cluster), each a separate JVM with its output in a temporary
 * log file. They are stopped on {@link #close()} and also when this JVM is stopped (Ctrl-C), since child processes
 * would otherwise outlive it.
 */
public final class AppInstances implements AutoCloseable {

    private final List<AppInstance> instances;
    private final Path logDirectory;
    private final Thread stopOnExit;

    private AppInstances(List<AppInstance> instances, Path logDirectory) {
        this.instances = instances;
        this.logDirectory = logDirectory;
        this.stopOnExit = new Thread(this::stopAll, "stop-inventory-instances");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /**
     * Starts {@code count} instances at once and waits until each answers HTTP.
     *
     * @param redisArguments the command-line arguments that point every instance at the shared Redis
     * @param onReady told about each instance as it becomes ready
     * @throws IllegalStateException if an instance exits or is not ready in time; the others are stopped then
     */
    public static AppInstances start(
            AppCommand command,
            int count,
            List<String> redisArguments,
            HttpClient http,
            Duration timeout,
            Consumer<AppInstance> onReady)
            throws InterruptedException {
        Path logDirectory = createLogDirectory();
        List<AppInstance> started = new ArrayList<>();
        AppInstances instances = new AppInstances(started, logDirectory);
        try {
            for (int i = 1; i <= count; i++) {
                started.add(AppInstance.start(command, "instance-" + i, redisArguments, logDirectory));
            }
            for (AppInstance instance : started) {
                instance.awaitReady(http, timeout);
                onReady.accept(instance);
            }
            return instances;
        } catch (RuntimeException | InterruptedException e) {
            instances.close();
            throw e;
        }
    }

    public List<URI> baseUris() {
        return instances.stream().map(AppInstance::baseUri).toList();
    }

    /** Stops every instance and deletes their logs. */
    @Override
    public void close() {
        stopAll();
        deleteLogs();
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or has run; there is nothing left to unregister.
        }
    }

    private void stopAll() {
        instances.parallelStream().forEach(AppInstance::close);
    }

    private void deleteLogs() {
        try (Stream<Path> logs = Files.list(logDirectory)) {
            for (Path log : logs.toList()) {
                Files.deleteIfExists(log);
            }
            Files.deleteIfExists(logDirectory);
        } catch (IOException e) {
            // Logs left in the temp directory are not worth failing for.
        }
    }

    private static Path createLogDirectory() {
        try {
            return Files.createTempDirectory("inventory-instances-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a directory for the instances' logs", e);
        }
    }
}
