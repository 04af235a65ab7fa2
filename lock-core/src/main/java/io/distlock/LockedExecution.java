package io.distlock;

import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work under an already acquired lock and releases it afterwards, the way {@link Lock#callWithLock} and {@link
 * DistributedLock @DistributedLock} do: the handle is visible through {@link LockContext} while the work runs, the
 * lock is released whether the work returned or threw, and a lock lost meanwhile is reported.
 *
 * <p>Work never starts on a handle already known to be lost, such as one whose grant arrived after its own lease ran
 * out: the handle is closed and a {@link LockLostException} thrown instead, so no work runs without its lock.
 *
 * <p>Release failures after work that returned: a lost lock is thrown or logged according to the {@link OnLockLost}
 * policy; a store failure while releasing a lock that was not lost is logged, since the work did run under the lock,
 * and the lock then expires with its lease. After work that threw, every release failure is attached to the work's
 * exception as suppressed.
 *
 * <p>Transactions inside the work: distlock's auto-configuration registers a listener on the application's
 * transaction managers that calls {@link #checkBeforeCommit()} just before each commit, so a transaction whose lock is
 * already lost rolls back, and {@link #transactionCommitted()} after it, so a loss found only when the work ends is
 * reported as {@link LockLostAfterCommitException}.
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
     * @throws LockLostException if the lock was already known lost when the work was to start, whatever {@code
     *     onLost} says, and the work did not run; or if the lock was lost before the work returned and {@code onLost}
     *     is THROW: a {@link LockLostAfterCommitException} if a transaction inside the work committed before the loss
     *     was found
     * @throws IllegalArgumentException if {@code onLost} is {@link OnLockLost#DEFAULT}, which callers must resolve
     */
    public static <T, X extends Throwable> T call(LockHandle handle, OnLockLost onLost, LockedCallable<T, X> work)
            throws X {
        return call(handle, onLost, null, work);
    }

    /**
     * Runs the work while holding {@code handle}, then releases it like {@link #call(LockHandle, OnLockLost,
     * LockedCallable)}, except that with a {@code holdAtLeast} the key stays held in the store until that long after
     * the acquisition ({@link LockHandle#releaseHoldingAtLeast}), whether the work returned or threw. A lock lost
     * before the end is reported as without it, and keeps nothing.
     *
     * @param handle the acquired lock; released by this method in every case
     * @param onLost {@link OnLockLost#THROW} or {@link OnLockLost#LOG}
     * @param holdAtLeast the minimum hold, from 1 ms to {@link Lease#MAX_FIXED}, or null for an ordinary release
     * @param work what to run
     * @param <T> the result type
     * @param <X> the work's checked exception
     * @return the work's result
     * @throws X the work's own exception
     * @throws LockLostException if the lock was already known lost when the work was to start (its grant arrived
     *     after its lease ran out), whatever {@code onLost} says, and the work did not run; or if the lock was lost
     *     before the work returned and {@code onLost} is THROW: a {@link LockLostAfterCommitException} if a
     *     transaction inside the work committed before the loss was found
     * @throws IllegalArgumentException if {@code onLost} is {@link OnLockLost#DEFAULT}, which callers must resolve, or
     *     {@code holdAtLeast} is out of range (found only when the work ends: check it before)
     */
    public static <T, X extends Throwable> T call(
            LockHandle handle, OnLockLost onLost, @Nullable Duration holdAtLeast, LockedCallable<T, X> work) throws X {
        if (onLost == OnLockLost.DEFAULT) {
            throw new IllegalArgumentException("onLost must be THROW or LOG; resolve DEFAULT from the configuration");
        }
        if (handle.isLost()) {
            // A grant can reach the holder after its own lease ran out (a slow answer, a paused JVM): then the work
            // would start without the lock, so it does not start at all.
            LockLostException late =
                    new LockLostException(handle.key(), LockLostException.Reason.GRANTED_TOO_LATE, Duration.ZERO);
            try {
                handle.close();
            } catch (RuntimeException releaseFailure) {
                late.addSuppressed(releaseFailure);
            }
            throw late;
        }
        T result;
        LockContext.push(handle, onLost);
        try {
            result = work.call();
        } catch (Throwable failure) {
            LockContext.pop(handle);
            try {
                end(handle, holdAtLeast);
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        boolean committed = LockContext.pop(handle);
        release(handle, onLost, holdAtLeast, committed);
        return result;
    }

    /**
     * Runs the work while holding several keys, then releases them, as if each key's handle were held by its own
     * {@link #call(LockHandle, OnLockLost, LockedCallable)} nested in the previous key's: every handle is visible
     * through {@link LockContext#current(String)}, the keys are released last taken first, and a loss of any key is
     * reported.
     *
     * @param held the acquired keys; released by this method in every case
     * @param onLost {@link OnLockLost#THROW} or {@link OnLockLost#LOG}
     * @param work what to run
     * @param <T> the result type
     * @param <X> the work's checked exception
     * @return the work's result
     * @throws X the work's own exception
     * @throws LockLostException if a key was lost before the work returned and {@code onLost} is THROW
     * @throws IllegalArgumentException if {@code onLost} is {@link OnLockLost#DEFAULT}, which callers must resolve
     */
    public static <T, X extends Throwable> T call(MultiLockHandle held, OnLockLost onLost, LockedCallable<T, X> work)
            throws X {
        return callNested(held.handles(), 0, onLost, work);
    }

    private static <T, X extends Throwable> T callNested(
            List<LockHandle> handles, int next, OnLockLost onLost, LockedCallable<T, X> work) throws X {
        if (next == handles.size()) {
            return work.call();
        }
        return call(handles.get(next), onLost, () -> callNested(handles, next + 1, onLost, work));
    }

    /**
     * Called just before a transaction on this thread commits: fails it if locked work running on this thread, with
     * {@link OnLockLost#THROW}, has lost its lock, so that the transaction rolls back instead of committing unprotected
     * changes. Work with {@link OnLockLost#LOG}, and scopes opened with {@link LockContext#enter}, are not checked.
     *
     * @throws LockLostException for the outermost such lock that is lost, which is released
     */
    public static void checkBeforeCommit() {
        for (LockHandle handle : LockContext.throwingOnLoss()) {
            if (handle.isLost()) {
                // Releasing a lost handle throws the loss, with its reason; the work's own release then does nothing.
                handle.close();
            }
        }
    }

    /** Called after a transaction on this thread committed: the locked work running on this thread has committed. */
    public static void transactionCommitted() {
        LockContext.transactionCommitted();
    }

    /**
     * Releases, keeping the key for the minimum when there is one. A lost handle, which {@link #checkBeforeCommit()}
     * may have released already, is closed instead: it has no key to keep, and closing reports the loss once.
     */
    private static void end(LockHandle handle, @Nullable Duration holdAtLeast) {
        if (holdAtLeast == null || handle.isLost()) {
            handle.close();
        } else {
            handle.releaseHoldingAtLeast(holdAtLeast);
        }
    }

    private static void release(
            LockHandle handle, OnLockLost onLost, @Nullable Duration holdAtLeast, boolean committed) {
        try {
            end(handle, holdAtLeast);
        } catch (LockLostException lost) {
            LockLostException reported = committed ? new LockLostAfterCommitException(lost) : lost;
            if (onLost == OnLockLost.THROW) {
                throw reported;
            }
            log.warn(
                    "Work under lock '{}' finished after the lock was lost: {}",
                    PrintableText.of(handle.key()),
                    reported.getMessage());
        } catch (LockBackendException backend) {
            log.warn(
                    "Lock '{}' could not be released after its work finished; it expires with its lease: {}",
                    PrintableText.of(handle.key()),
                    backend.getMessage());
        }
    }
}
