package io.distlock.redis.fuzz;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** One acquisition of a {@link NaiveLock}; lost once its lease has run out by the local clock. */
final class NaiveLockHandle implements LockHandle {

    private final NaiveLock lock;
    private final String key;
    private final String token;
    private final long fencingToken;
    private final Lease lease;
    private final long acquiredNanos = System.nanoTime();
    private final long expiresByNanos;
    private final AtomicBoolean released = new AtomicBoolean();

    NaiveLockHandle(NaiveLock lock, String key, String token, long fencingToken, Lease lease, long expiresByNanos) {
        this.lock = lock;
        this.key = key;
        this.token = token;
        this.fencingToken = fencingToken;
        this.lease = lease;
        this.expiresByNanos = expiresByNanos;
    }

    /** When the lease ends at the latest, by the monotonic clock. */
    long expiresByNanos() {
        return expiresByNanos;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public String ownerToken() {
        return token;
    }

    @Override
    public Lease lease() {
        return lease;
    }

    @Override
    public boolean isHeld() {
        return !released.get() && lock.isHeld(this);
    }

    @Override
    public Duration remainingLease() {
        return released.get() ? Duration.ZERO : lock.remainingLease(this);
    }

    @Override
    public void extend(Duration newLease) {
        throw new UnsupportedOperationException("the fuzz workers do not extend leases");
    }

    @Override
    public boolean isLost() {
        return System.nanoTime() - expiresByNanos >= 0;
    }

    @Override
    public void onLost(Consumer<LockLostException> callback) {
        throw new UnsupportedOperationException("the fuzz workers do not register lost-lock callbacks");
    }

    @Override
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("lock '" + key + "' was already released through this handle");
        }
        lock.release(this);
    }

    @Override
    public void releaseHoldingAtLeast(Duration minimum) {
        throw new UnsupportedOperationException("the broken lock of the controls has no minimum hold");
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            lock.release(this);
        }
    }

    LockLostException lost(Reason reason) {
        return new LockLostException(key, reason, Duration.ofNanos(System.nanoTime() - acquiredNanos));
    }
}
