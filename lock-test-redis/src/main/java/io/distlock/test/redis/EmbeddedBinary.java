package io.distlock.test.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The redis-server binaries that the {@code embedded-redis} jar carries as resources at its root. Only the resources are
 * used: its Java API would start servers in ways this library cannot control (port, signals, logs).
 */
final class EmbeddedBinary {

    private static final Map<String, String> BINARIES = Map.of(
            "linux/amd64", "redis-server-6.2.6-v5-linux-amd64",
            "linux/arm64", "redis-server-6.2.7-linux-arm64",
            "linux/x86", "redis-server-6.2.7-linux-386",
            "mac/amd64", "redis-server-6.2.6-v5-darwin-amd64",
            "mac/arm64", "redis-server-6.2.6-v5-darwin-arm64",
            "windows/amd64", "redis-server-5.0.14.1-windows-amd64.exe");

    private static Path extracted;

    private EmbeddedBinary() {}

    /** The resource name of the binary for this machine, or empty when the jar has none for it. */
    static Optional<String> resourceName() {
        return Optional.ofNullable(BINARIES.get(Os.family() + "/" + Os.cpu())).filter(EmbeddedBinary::isOnClasspath);
    }

    /**
     * Copies the binary into a private temp directory once per JVM and makes it executable. A private directory rather
     * than a shared cache, because a predictable path in a shared temp dir could be replaced by another user.
     */
    static synchronized Path extract() {
        if (extracted == null) {
            String name = resourceName()
                    .orElseThrow(() -> new IllegalStateException("embedded-redis has no redis-server for "
                            + System.getProperty("os.name") + "/" + System.getProperty("os.arch")));
            extracted = copyToTempDirectory(name);
        }
        return extracted;
    }

    private static Path copyToTempDirectory(String name) {
        try (InputStream binary = classLoader().getResourceAsStream(name)) {
            if (binary == null) {
                throw new IllegalStateException("Resource " + name + " vanished from the classpath");
            }
            Path directory = Files.createTempDirectory("distlock-redis-bin-");
            Path target = directory.resolve(name);
            // deleteOnExit runs in reverse order, so the file goes before its directory.
            directory.toFile().deleteOnExit();
            target.toFile().deleteOnExit();
            Files.copy(binary, target);
            if (!target.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("Could not make " + target + " executable");
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not extract " + name + " from embedded-redis", e);
        }
    }

    private static boolean isOnClasspath(String name) {
        return classLoader().getResource(name) != null;
    }

    private static ClassLoader classLoader() {
        return EmbeddedBinary.class.getClassLoader();
    }
}
