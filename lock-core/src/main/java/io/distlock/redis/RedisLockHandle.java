package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** A handle on a {@link Hold}; nested acquisitions of the same owner get their own handles on one hold. */
final class RedisLockHandle implements LockHandle {

    private final RedisLock lock;
    private final Hold hold;
    private final AtomicBoolean released = new AtomicBoolean();

    RedisLockHandle(RedisLock lock, Hold hold) {
        this.lock = lock;
        this.hold = hold;
    }

    @Override
    public String key() {
        return hold.key();
    }

    @Override
    public long fencingToken() {
        return hold.fencingToken();
    }

    @Override
    public String ownerToken() {
        return hold.token();
    }

    @Override
    public Lease lease() {
        return hold.lease();
    }

    @Override
    public boolean isHeld() {
        return !released.get() && lock.isHeld(hold);
    }

    @Override
    public Duration remainingLease() {
        return released.get() ? Duration.ZERO : lock.remainingLease(hold);
    }

    @Override
    public void extend(Duration lease) {
        if (released.get()) {
            throw new IllegalStateException("lock '" + hold.key() + "' was already released through this handle");
        }
        lock.extend(hold, lease);
    }

    @Override
    public boolean isLost() {
        return hold.lostOrNull() != null;
    }

    @Override
    public void onLost(Consumer<LockLostException> callback) {
        if (callback == null) {
            throw new IllegalArgumentException("callback must not be null");
        }
        lock.onLost(hold, callback);
    }

    @Override
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("lock '" + hold.key() + "' was already released through this handle");
        }
        lock.release(hold);
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            lock.release(hold);
        }
    }

    @Override
    public String toString() {
        return "LockHandle[key=" + hold.key() + ", fencingToken=" + hold.fencingToken() + ", lease=" + hold.lease()
                + (released.get() ? ", released" : "") + "]";
    }
}
