package io.distlock.tck.process;

import io.distlock.Lock;
import java.util.Objects;

/**
 * A lock that a {@link ProcessLockFactory} built, with what closes it and the connections it opened for it.
 *
 * @param lock the lock
 * @param closer closes the lock, then its connections
 */
public record OpenedLock(Lock lock, Runnable closer) implements AutoCloseable {

    /**
     * Checks the parts.
     *
     * @param lock the lock
     * @param closer closes the lock, then its connections
     */
    public OpenedLock {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(closer, "closer");
    }

    /** Closes the lock and its connections. */
    @Override
    public void close() {
        closer.run();
    }
}
