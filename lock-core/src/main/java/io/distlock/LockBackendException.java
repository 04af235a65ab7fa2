package io.distlock;

import org.jspecify.annotations.Nullable;

/**
 * The lock's store (Redis, the database, ZooKeeper) could not be asked: it was unreachable, refused the command, or did
 * not answer in time. Whether the lock was taken, released or extended is then unknown to the caller; distlock never
 * reports such a failure as "not acquired".
 */
public class LockBackendException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param key the lock's key
     * @param message what failed, naming the key and the operation
     * @param cause the client's exception, or null for a timeout detected by distlock
     */
    public LockBackendException(String key, String message, @Nullable Throwable cause) {
        super(key, message, cause);
    }
}
