package io.distlock.example.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One key's file: its holder's owner token, when the holder's lease ends on this machine's clock, and the fencing
 * counter, which stays after a release. Every read-and-change runs under the file's operating-system lock, which
 * excludes other processes, and under a lock of this JVM, which the operating-system lock does not cover.
 */
final class KeyFile {

    /**
     * What the file holds.
     *
     * @param owner the holder's owner token, or empty when nobody holds the key
     * @param expiresAtMillis when the holder's lease ends, on this machine's clock
     * @param fence the last fencing token handed out for the key
     */
    record State(String owner, long expiresAtMillis, long fence) {

        static final State EMPTY = new State("", 0, 0);

        boolean heldBy(String token, long nowMillis) {
            return owner.equals(token) && nowMillis < expiresAtMillis;
        }

        boolean heldAt(long nowMillis) {
            return !owner.isEmpty() && nowMillis < expiresAtMillis;
        }

        String text() {
            return owner + "\n" + expiresAtMillis + "\n" + fence + "\n";
        }

        static State parse(String text) {
            if (text.isEmpty()) {
                return EMPTY;
            }
            String[] lines = text.split("\n", -1);
            return new State(lines[0], Long.parseLong(lines[1]), Long.parseLong(lines[2]));
        }
    }

    /** A change of the state, which returns the new state (or the same to change nothing) and a result. */
    @FunctionalInterface
    interface Change<T> {
        Outcome<T> apply(State state, long nowMillis);
    }

    /**
     * @param state the state to write, or the one read to leave the file as it is
     * @param result what the caller gets
     */
    record Outcome<T>(State state, @Nullable T result) {}

    private static final ReentrantLock[] IN_THIS_JVM = stripes(64);

    private final Path path;

    KeyFile(Path path) {
        this.path = path;
    }

    /** Reads the state and applies the change, atomically against every process and thread. */
    <T> @Nullable T change(Change<T> change) {
        ReentrantLock local = IN_THIS_JVM[Math.floorMod(path.hashCode(), IN_THIS_JVM.length)];
        local.lock();
        try (FileChannel channel =
                FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock held = channel.lock();
            try {
                return apply(channel, change);
            } finally {
                held.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("key file " + path.getFileName() + ": " + e.getMessage(), e);
        } finally {
            local.unlock();
        }
    }

    private static <T> @Nullable T apply(FileChannel channel, Change<T> change) throws IOException {
        State before = State.parse(read(channel));
        Outcome<T> outcome = change.apply(before, System.currentTimeMillis());
        if (!outcome.state().equals(before)) {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(outcome.state().text().getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(false);
        }
        return outcome.result();
    }

    /** Ends the key's hold, keeping its fencing counter, as someone who may write the directory could. */
    void removeHolder() {
        change((state, now) -> new Outcome<Void>(new State("", 0, state.fence()), null));
    }

    private static String read(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) >= 0) {
            // A read may return fewer bytes than are left; the position moves with each.
        }
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }

    private static ReentrantLock[] stripes(int count) {
        ReentrantLock[] locks = new ReentrantLock[count];
        for (int i = 0; i < count; i++) {
            locks[i] = new ReentrantLock();
        }
        return locks;
    }
}
