package io.distlock.tck.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * The counter that the children of the exclusion cases share: a file that holds a number, incremented by reading it,
 * pausing and writing it back, so that two increments at once lose one.
 */
final class CounterFile {

    /** Between reading and writing: the window in which another process's increment is lost without the lock. */
    static final Duration WINDOW = Duration.ofMillis(10);

    private final Path file;

    CounterFile(Path file) {
        this.file = file;
    }

    /** Creates the counter at {@code file}, at 0. */
    static CounterFile create(Path file) throws IOException {
        CounterFile counter = new CounterFile(file);
        counter.write(0);
        return counter;
    }

    Path file() {
        return file;
    }

    long read() throws IOException {
        return Long.parseLong(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** Reads the count, waits {@link #WINDOW} and writes the count plus one, without any lock of its own. */
    void increment() throws IOException, InterruptedException {
        long count = read();
        Thread.sleep(WINDOW.toMillis());
        write(count + 1);
    }

    /**
     * Writes a file of this process's own and renames it over the counter, so that a reader in another process always
     * finds a whole number, whatever the writes around it.
     */
    private void write(long count) throws IOException {
        Path written = file.resolveSibling(
                file.getFileName() + "." + ProcessHandle.current().pid());
        Files.writeString(written, Long.toString(count), StandardCharsets.UTF_8);
        Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
