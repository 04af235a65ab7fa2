package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The private temp directory of one server process: its working dir and the log that explains a failed start. */
final class ServerDirectory {

    private static final int TAIL_LINES = 30;

    private final Path path;
    private final Path log;

    private ServerDirectory(Path path) {
        this.path = path;
        this.log = path.resolve("redis.log");
    }

    static ServerDirectory create() {
        try {
            return new ServerDirectory(Files.createTempDirectory("distlock-redis-"));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a temp directory for redis-server", e);
        }
    }

    Path path() {
        return path;
    }

    Path log() {
        return log;
    }

    /** The current end of the log; later starts append, and a failure report should show only its own start. */
    long logSize() {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** The last lines the server wrote since {@code offset}; redis logs are a few kilobytes, so reading all is fine. */
    String logTail(long offset) {
        try {
            byte[] bytes = Files.readAllBytes(log);
            int start = Math.toIntExact(Math.min(offset, bytes.length));
            List<String> lines = Arrays.asList(new String(bytes, start, bytes.length - start, UTF_8).split("\n"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(could not read " + log + ": " + e + ")";
        }
    }

    /** Best effort: a file a virus scanner still holds must not turn a passed test into a failed one. */
    void delete() {
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Leaves the directory to the OS's temp cleanup.
        }
    }
}
