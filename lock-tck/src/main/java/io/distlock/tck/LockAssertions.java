package io.distlock.tck;

import io.distlock.LockContext;
import io.distlock.LockHandle;

/**
 * Assertions for an application's own tests: that code runs under the distributed lock it needs. They read what the
 * calling thread's work holds ({@link LockContext}: a {@code @DistributedLock} method, {@code Lock.callWithLock} or a
 * {@link LockContext#enter} scope), so they work with any {@link io.distlock.Lock}, the in-memory one included.
 *
 * <pre>{@code
 * @Override
 * public void save(Order order) {
 *     LockAssertions.assertRunsUnderLock("order:" + order.id());
 *     ...
 * }
 * }</pre>
 */
public final class LockAssertions {

    private LockAssertions() {}

    /**
     * Asserts that the work on the calling thread holds the lock on {@code key}, and has not lost it: its lease has not
     * run out as far as the lock knows, and no other owner took the key.
     *
     * @param key the lock's key, as the annotation's expression or the caller named it
     * @return the handle, for further checks such as its fencing token or lease
     * @throws AssertionError naming the key and what the thread holds instead, or why the lock is lost
     */
    public static LockHandle assertRunsUnderLock(String key) {
        LockHandle handle = LockContext.current(key)
                .orElseThrow(() -> new AssertionError("expected the work on thread "
                        + Thread.currentThread().getName() + " to hold the lock '" + key + "', but it holds "
                        + LockContext.current()
                                .map(innermost -> "'" + innermost.key() + "' (innermost) and not that one")
                                .orElse("no lock at all")));
        if (handle.isLost()) {
            throw new AssertionError("expected the work on thread "
                    + Thread.currentThread().getName()
                    + " to hold the lock '" + key + "', but the lock was lost (lease ran out or another owner took"
                    + " it): the code ran without it from then on");
        }
        return handle;
    }
}
