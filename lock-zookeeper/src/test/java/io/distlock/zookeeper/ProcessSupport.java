package io.distlock.zookeeper;

import io.distlock.store.StoreLock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Starts test JVMs on this test's class path and reads the line they report. */
final class ProcessSupport {

    private ProcessSupport() {}

    static Process start(Class<?> main, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp"));
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** The first line of the process's output that starts with a prefix, or null if it ended without one. */
    static String awaitLine(Process process, Duration timeout, String... prefixes) throws Exception {
        BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                String next;
                while ((next = output.readLine()) != null) {
                    for (String prefix : prefixes) {
                        if (next.startsWith(prefix)) {
                            return next;
                        }
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        return line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    static StoreLock lock(String connectString, Duration sessionTimeout) {
        return StoreLock.builder(ZooKeeperLeaseStore.builder(connectString)
                        .sessionTimeout(sessionTimeout)
                        .build())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
    }
}
