package io.distlock.internal.engine;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The {@link io.distlock.Lock#asJavaLock} view of one key, owned by threads as {@link Lock} expects: only the thread
 * that locked unlocks, and while it holds the key through the view, its other acquisitions of the key through the same
 * lock (through any view, or plain) re-enter that hold, since the lock asks its {@link ThreadOwnedHandles} on every
 * acquisition. For lock implementations, which return it from {@code asJavaLock}; applications see a {@link Lock}.
 */
public final class JavaLockView implements Lock {

    private final io.distlock.Lock lock;
    private final String key;
    private final Lease lease;
    private final ThreadOwnedHandles owned;
    private final Map<Thread, Deque<LockHandle>> handles = new ConcurrentHashMap<>();

    /**
     * A view of one key of a lock.
     *
     * @param lock takes the key on every {@code lock} and {@code tryLock}; it re-enters the holds {@code owned} knows
     * @param key the key, checked by the caller
     * @param lease the lease of every acquisition through the view, checked by the caller
     * @param owned the lock's registry of the handles its threads own through views
     */
    public JavaLockView(io.distlock.Lock lock, String key, Lease lease, ThreadOwnedHandles owned) {
        this.lock = lock;
        this.key = key;
        this.lease = lease;
        this.owned = owned;
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    held(lock.acquire(key, lease));
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
        held(lock.acquire(key, lease));
    }

    @Override
    public boolean tryLock() {
        return held(lock.tryAcquire(key, lease));
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return held(lock.tryAcquire(key, lease, Duration.ofNanos(Math.max(0, unit.toNanos(time)))));
    }

    @Override
    public void unlock() {
        Thread current = Thread.currentThread();
        Deque<LockHandle> mine = handles.get(current);
        if (mine == null || mine.isEmpty()) {
            throw new IllegalMonitorStateException("lock '" + PrintableText.of(key) + "' is not held by thread "
                    + current.getName() + " through this view");
        }
        LockHandle handle = mine.pop();
        if (mine.isEmpty()) {
            handles.remove(current);
        }
        owned.remove(handle);
        handle.release();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("distlock's java.util.concurrent.locks.Lock view has no conditions");
    }

    private boolean held(Optional<LockHandle> handle) {
        handle.ifPresent(this::held);
        return handle.isPresent();
    }

    private void held(LockHandle handle) {
        handles.computeIfAbsent(Thread.currentThread(), thread -> new ArrayDeque<>())
                .push(handle);
        owned.add(handle);
    }

    @Override
    public String toString() {
        return "java.util.concurrent.locks.Lock view of distlock key '" + PrintableText.of(key) + "' with " + lease;
    }
}
