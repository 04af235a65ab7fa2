package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Starts JVMs on the test class path and reads the lines they print. */
final class TestProcesses {

    private TestProcesses() {}

    static Process start(Class<?> main, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(
                List.of(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Waits for the first line that starts with the prefix and returns it; fails with the output seen if none came. */
    static String awaitLine(Process process, String prefix, long timeoutSeconds) throws Exception {
        BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                String next;
                while ((next = output.readLine()) != null) {
                    if (next.startsWith(prefix)) {
                        return next;
                    }
                    synchronized (seen) {
                        seen.append(next).append('\n');
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        String found;
        try {
            found = line.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            found = null;
        }
        synchronized (seen) {
            assertThat(found)
                    .as("a line starting with %s; the process printed:%n%s", prefix, seen)
                    .isNotNull();
        }
        return found;
    }
}
