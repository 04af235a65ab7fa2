package io.distlock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work under an already acquired lock and releases it afterwards, the way {@link Lock#callWithLock} and {@link
 * DistributedLock @DistributedLock} do: the handle is visible through {@link LockContext} while the work runs, the
 * lock is released whether the work returned or threw, and a lock lost meanwhile is reported.
 *
 * <p>Release failures after work that returned: a lost lock is thrown or logged according to the {@link OnLockLost}
 * policy; a Redis failure while releasing a lock that was not lost is logged, since the work did run under the lock,
 * and the lock then expires with its lease. After work that threw, every release failure is attached to the work's
 * exception as suppressed.
 */
public final class LockedExecution {

    private static final Logger log = LoggerFactory.getLogger(LockedExecution.class);

    private LockedExecution() {}

    /**
     * Runs the work while holding {@code handle}, then releases it.
     *
     * @param handle the acquired lock; released by this method in every case
     * @param onLost {@link OnLockLost#THROW} or {@link OnLockLost#LOG}
     * @param work what to run
     * @param <T> the result type
     * @param <X> the work's checked exception
     * @return the work's result
     * @throws X the work's own exception
     * @throws LockLostException if the lock was lost before the work returned and {@code onLost} is THROW
     * @throws IllegalArgumentException if {@code onLost} is {@link OnLockLost#DEFAULT}, which callers must resolve
     */
    public static <T, X extends Throwable> T call(LockHandle handle, OnLockLost onLost, LockedCallable<T, X> work)
            throws X {
        if (onLost == OnLockLost.DEFAULT) {
            throw new IllegalArgumentException("onLost must be THROW or LOG; resolve DEFAULT from the configuration");
        }
        T result;
        LockContext.push(handle);
        try {
            result = work.call();
        } catch (Throwable failure) {
            LockContext.pop(handle);
            try {
                handle.release();
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        LockContext.pop(handle);
        release(handle, onLost);
        return result;
    }

    private static void release(LockHandle handle, OnLockLost onLost) {
        try {
            handle.release();
        } catch (LockLostException lost) {
            if (onLost == OnLockLost.THROW) {
                throw lost;
            }
            log.warn("Work under lock '{}' finished after the lock was lost: {}", handle.key(), lost.getMessage());
        } catch (LockBackendException backend) {
            log.warn(
                    "Lock '{}' could not be released after its work finished; it expires with its lease: {}",
                    handle.key(),
                    backend.getMessage());
        }
    }
}
