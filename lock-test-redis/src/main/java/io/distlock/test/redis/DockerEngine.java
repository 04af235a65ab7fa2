package io.distlock.test.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.testcontainers.DockerClientFactory;

/**
 * Whether Testcontainers can reach a Docker engine. Testcontainers' own probe takes seconds and logs stack traces when
 * there is none, so it only runs when a cheap look at the usual sockets and settings suggests an engine exists.
 */
final class DockerEngine {

    private static final String WINDOWS_PIPE = "\\\\.\\pipe\\docker_engine";

    private DockerEngine() {}

    /** Why a Docker engine might be there, or empty when nothing suggests one. */
    static Optional<String> hint() {
        String dockerHost = System.getenv("DOCKER_HOST");
        if (dockerHost != null && !dockerHost.isBlank()) {
            return Optional.of("DOCKER_HOST=" + dockerHost);
        }
        if (testcontainersPropertiesNameAHost()) {
            return Optional.of("docker.host in ~/.testcontainers.properties");
        }
        for (String socket : socketCandidates()) {
            if (new File(socket).exists()) {
                return Optional.of(socket + " exists");
            }
        }
        return Optional.empty();
    }

    /** Asks Testcontainers, which also finds engines the hint cannot tell apart from a stale socket file. */
    static boolean isAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    private static List<String> socketCandidates() {
        if (Os.isWindows()) {
            return List.of(WINDOWS_PIPE);
        }
        String home = System.getProperty("user.home");
        List<String> sockets = new ArrayList<>(List.of(
                "/var/run/docker.sock",
                home + "/.docker/run/docker.sock",
                home + "/.docker/desktop/docker.sock",
                home + "/.colima/default/docker.sock",
                home + "/.rd/docker.sock"));
        String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
        if (runtimeDir != null) {
            sockets.add(runtimeDir + "/docker.sock");
        }
        return sockets;
    }

    private static boolean testcontainersPropertiesNameAHost() {
        Path file = Path.of(System.getProperty("user.home"), ".testcontainers.properties");
        if (!Files.isRegularFile(file)) {
            return false;
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        } catch (IOException e) {
            return false;
        }
        return properties.getProperty("docker.host") != null;
    }
}
