package io.distlock.redis;

import io.distlock.Lease;
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

/**
 * A {@link Lock} over one key of a {@link RedisLock} (or its {@link FairLock}), owned by threads as that interface
 * expects: while a thread holds the key through a view, its acquisitions of the key through the same {@link RedisLock}
 * re-enter that hold.
 */
final class JavaLockView implements Lock {

    private final RedisLock owner;
    private final io.distlock.Lock lock;
    private final String key;
    private final Lease lease;
    private final Map<Thread, Deque<LockHandle>> handles = new ConcurrentHashMap<>();

    /** @param lock takes the key: {@code owner} itself, or its fair lock */
    JavaLockView(RedisLock owner, io.distlock.Lock lock, String key, Lease lease) {
        this.owner = owner;
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
            throw new IllegalMonitorStateException(
                    "lock '" + key + "' is not held by thread " + current.getName() + " through this view");
        }
        LockHandle handle = mine.pop();
        if (mine.isEmpty()) {
            handles.remove(current);
        }
        owner.noLongerOwnedByThread(handle);
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
        owner.ownedByThread(handle);
    }

    @Override
    public String toString() {
        return "java.util.concurrent.locks.Lock view of distlock key '" + key + "' with " + lease;
    }
}
