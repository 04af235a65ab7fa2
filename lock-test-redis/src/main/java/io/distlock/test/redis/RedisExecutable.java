package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A redis-server binary on this machine and how to describe it in test output. */
record RedisExecutable(Path path, String label) {

    private static final Pattern VERSION = Pattern.compile("v=(\\S+)");
    private static final long VERSION_TIMEOUT_SECONDS = 5;
    private static final String UNKNOWN_VERSION = "(unknown version)";

    /** The redis-server on the PATH, looked up afresh so a test can see a PATH change; cheap compared to a start. */
    static Optional<RedisExecutable> onPath() {
        return PathLookup.find("redis-server")
                .map(path -> new RedisExecutable(path, "redis-server " + version(path) + " from PATH"));
    }

    static RedisExecutable embedded() {
        Path path = EmbeddedBinary.extract();
        return new RedisExecutable(path, "redis-server " + version(path) + " embedded (" + path.getFileName() + ")");
    }

    /** Asks the binary itself, because file names (e.g. embedded-redis's) do not always match the real version. */
    static String version(Path executable) {
        try {
            Process process = new ProcessBuilder(executable.toString(), "--version")
                    .redirectErrorStream(true)
                    .start();
            // The output is one short line, so waiting before reading cannot fill the pipe and block the binary.
            if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return UNKNOWN_VERSION;
            }
            try (InputStream in = process.getInputStream()) {
                Matcher matcher = VERSION.matcher(new String(in.readAllBytes(), UTF_8));
                return matcher.find() ? matcher.group(1) : UNKNOWN_VERSION;
            }
        } catch (IOException e) {
            return UNKNOWN_VERSION;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNKNOWN_VERSION;
        }
    }
}
