package io.distlock.store;

import io.distlock.Lease;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Lock} of one key of a {@link StoreLock}, owned by threads as {@link Lock} expects: a thread that holds the
 * key through this view re-enters it, and only that thread unlocks.
 */
final class StoreJavaLockView implements Lock {

    private final StoreLock lock;
    private final String key;
    private final Lease lease;
    private final Map<Thread, Deque<LockHandle>> handles = new ConcurrentHashMap<>();

    StoreJavaLockView(StoreLock lock, String key, Lease lease) {
        this.lock = lock;
        this.key = key;
        this.lease = lease;
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    lockInterruptibly();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        LockHandle nested = reentry();
        held(nested != null ? nested : lock.acquire(key, lease));
    }

    @Override
    public boolean tryLock() {
        LockHandle nested = reentry();
        return held(nested != null ? Optional.of(nested) : lock.tryAcquire(key, lease));
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        LockHandle nested = reentry();
        return held(
                nested != null
                        ? Optional.of(nested)
                        : lock.tryAcquire(key, lease, Duration.ofNanos(Math.max(0, unit.toNanos(time)))));
    }

    @Override
    public void unlock() {
        Thread current = Thread.currentThread();
        Deque<LockHandle> mine = handles.get(current);
        if (mine == null || mine.isEmpty()) {
            throw new IllegalMonitorStateException(
                    "lock '" + key + "' is not held by thread " + current.getName() + " through this view");
        }
        LockHandle handle = mine.pop();
        if (mine.isEmpty()) {
            handles.remove(current);
        }
        handle.release();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("distlock's java.util.concurrent.locks.Lock view has no conditions");
    }

    /** A re-entry into the hold this thread took through this view, as if in its scope; null if it holds none. */
    @Nullable
    @SuppressWarnings("try") // the scope is what lets joinScope find the hold
    private LockHandle reentry() {
        Deque<LockHandle> mine = handles.get(Thread.currentThread());
        if (mine == null || mine.isEmpty()) {
            return null;
        }
        try (LockContext.Scope scope = LockContext.enter(mine.peekLast())) {
            return lock.joinScope(key, lease);
        }
    }

    private boolean held(Optional<LockHandle> handle) {
        handle.ifPresent(this::held);
        return handle.isPresent();
    }

    private void held(LockHandle handle) {
        handles.computeIfAbsent(Thread.currentThread(), thread -> new ArrayDeque<>())
                .push(handle);
    }

    @Override
    public String toString() {
        return "java.util.concurrent.locks.Lock view of distlock key '" + key + "' with " + lease;
    }
}
