package io.distlock.example.file;

import io.distlock.LockBackendException;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A {@link LeaseStore} on the files of one local directory, for {@link StoreLock}: one file per key, named by the
 * SHA-256 of the key, that holds the holder's owner token, the end of its lease and the key's fencing counter. Every
 * change reads and writes the file under the operating system's file lock, so the processes of one machine that share
 * the directory exclude each other.
 *
 * <p>The store's clock is the machine's clock, which every process that shares the directory reads: a directory
 * shared between machines (over NFS, say) would count leases on several clocks, and is not supported. Waiters poll the
 * key's file, from 10 ms growing to 100 ms, and are woken at once by a release in the same JVM. The store learns of a
 * lost hold only when asked; {@code StoreLock}'s renewals and checks ask.
 */
public final class FileLeaseStore implements LeaseStore {

    private final Path directory;
    private final Releases releases = new Releases();

    /**
     * A store on the directory, which is created if missing.
     *
     * @param directory the directory that every process sharing these locks uses
     * @throws IllegalArgumentException if the directory is null or cannot be created
     */
    public FileLeaseStore(Path directory) {
        if (directory == null) {
            throw new IllegalArgumentException("directory must not be null");
        }
        try {
            this.directory = Files.createDirectories(directory);
        } catch (IOException e) {
            throw new IllegalArgumentException("the lock directory " + directory + " cannot be created: " + e, e);
        }
    }

    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        return new FileAcquisition(this, key, owner, lease.toMillis());
    }

    @Override
    public Optional<Duration> remainingLease(String key) {
        Long left = call(
                key,
                "reading",
                () -> file(key)
                        .change((state, now) -> new KeyFile.Outcome<>(
                                state, state.heldAt(now) ? state.expiresAtMillis() - now : null)));
        return Optional.ofNullable(left).map(Duration::ofMillis);
    }

    /**
     * @throws LockBackendException if the directory cannot be written
     */
    @Override
    public void ping() {
        if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
            throw new LockBackendException("", describe() + " is not a writable directory", null);
        }
    }

    @Override
    public String describe() {
        return "FileLeaseStore[" + directory + "]";
    }

    /** Nothing to close: every call opens and closes its key's file. */
    @Override
    public void close() {}

    /**
     * Ends the key's hold behind its holder's back, as someone who may write the directory could; the key's fencing
     * counter stays.
     *
     * @param key the key
     */
    public void removeHolder(String key) {
        file(key).removeHolder();
    }

    KeyFile file(String key) {
        return new KeyFile(directory.resolve(fileName(key)));
    }

    Releases releases() {
        return releases;
    }

    /**
     * Runs a file operation with the thread's interrupt status cleared, and sets it again afterwards: a file channel
     * closes on an interrupted thread, and a holder must still extend and release from one. An I/O failure becomes the
     * {@link LockBackendException} that {@code Lock} promises.
     */
    <T> T call(String key, String what, Supplier<T> operation) {
        boolean interrupted = Thread.interrupted();
        try {
            return operation.get();
        } catch (UncheckedIOException e) {
            throw new LockBackendException(key, describe() + ": " + what + " failed: " + e.getMessage(), e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String fileName(String key) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(key.getBytes(StandardCharsets.UTF_8))) + ".lock";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
