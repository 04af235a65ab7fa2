package io.distlock.internal.engine;

import io.distlock.Lock;
import io.distlock.LockNotAcquiredException;
import io.distlock.monitor.InspectableLock;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names the holder in a {@link LockNotAcquiredException}: once a wait ran out, one read of the store says who held the
 * key then. Only the failure pays that read; a lock that cannot be inspected, or a read that fails, gives the exception
 * without a name rather than another failure.
 */
public final class KeyHolders {

    private static final Logger log = LoggerFactory.getLogger(KeyHolders.class);

    private KeyHolders() {}

    /**
     * The exception for a wait for {@code key} that ran out, naming the holder where the store can.
     *
     * @param lock the lock that was waited on
     * @param key the key
     * @param waited how long the caller waited
     * @return the exception
     */
    public static LockNotAcquiredException notAcquired(Lock lock, String key, Duration waited) {
        return new LockNotAcquiredException(key, waited, holderOf(lock, key));
    }

    private static @Nullable String holderOf(Lock lock, String key) {
        if (!(lock instanceof InspectableLock inspectable)) {
            return null;
        }
        try {
            return inspectable.keyState(key).holder();
        } catch (RuntimeException e) {
            log.debug("Could not read who holds the lock that was not acquired", e);
            return null;
        }
    }
}
