package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition in Redis (one owner token), shared by the outer handle and the nested handles of the same owner.
 *
 * <p>It keeps a conservative local estimate of when Redis will expire the key: the time a confirming command was
 * <em>sent</em>, plus the lease it set, by the monotonic clock. Once that passes without a newer confirmation the hold
 * counts as lost, even if Redis would still answer that it owns the key.
 */
final class Hold {

    private static final Object RELEASED = new Object();

    private final String key;
    private final String lockKey;
    private final byte[] lockKeyBytes;
    private final String token;
    private final byte[] tokenBytes;
    private final long fencingToken;
    private final Lease lease;
    private final long leaseMillis;
    private final Thread owner;
    private final long acquiredNanos;
    private final Executor callbackExecutor;

    private final AtomicInteger openHandles = new AtomicInteger(1);
    /** null while held; {@link #RELEASED} after a normal release; the {@link LockLostException} once lost. */
    private final AtomicReference<@Nullable Object> outcome = new AtomicReference<>();

    private volatile long expiresByNanos;
    private @Nullable List<Consumer<LockLostException>> callbacks;

    Hold(
            String key,
            String lockKey,
            String token,
            long fencingToken,
            Lease lease,
            long leaseMillis,
            Thread owner,
            long sentNanos,
            Executor callbackExecutor) {
        this.key = key;
        this.lockKey = lockKey;
        this.lockKeyBytes = RedisKeys.bytes(lockKey);
        this.token = token;
        this.tokenBytes = RedisKeys.bytes(token);
        this.fencingToken = fencingToken;
        this.lease = lease;
        this.leaseMillis = leaseMillis;
        this.owner = owner;
        this.acquiredNanos = sentNanos;
        this.expiresByNanos = sentNanos + Duration.ofMillis(leaseMillis).toNanos();
        this.callbackExecutor = callbackExecutor;
    }

    String key() {
        return key;
    }

    String lockKey() {
        return lockKey;
    }

    byte[] lockKeyBytes() {
        return lockKeyBytes;
    }

    String token() {
        return token;
    }

    byte[] tokenBytes() {
        return tokenBytes;
    }

    long fencingToken() {
        return fencingToken;
    }

    Lease lease() {
        return lease;
    }

    long leaseMillis() {
        return leaseMillis;
    }

    Thread owner() {
        return owner;
    }

    long expiresByNanos() {
        return expiresByNanos;
    }

    /** Adds a handle to this hold unless its last handle was already released. */
    boolean join() {
        while (true) {
            int count = openHandles.get();
            if (count == 0) {
                return false;
            }
            if (openHandles.compareAndSet(count, count + 1)) {
                return true;
            }
        }
    }

    /** Removes a handle; true if it was the last, so the lock must now be released in Redis. */
    boolean leave() {
        return openHandles.decrementAndGet() == 0;
    }

    /** Redis confirmed a command sent at {@code sentNanos} that set the remaining lease to {@code millis}. */
    void leaseSet(long sentNanos, long millis) {
        expiresByNanos = sentNanos + Duration.ofMillis(millis).toNanos();
    }

    /** Redis confirmed a command sent at {@code sentNanos} that made the remaining lease at least {@code millis}. */
    synchronized void leaseAtLeast(long sentNanos, long millis) {
        expiresByNanos =
                Math.max(expiresByNanos, sentNanos + Duration.ofMillis(millis).toNanos());
    }

    boolean isReleased() {
        return outcome.get() == RELEASED;
    }

    /** The loss of this hold if it is known or the lease estimate has run out; null while it is believed held. */
    @Nullable
    LockLostException lostOrNull() {
        Object current = outcome.get();
        if (current == null && System.nanoTime() - expiresByNanos >= 0) {
            markLost(lease.isRenewed() ? Reason.RENEWAL_FAILED : Reason.LEASE_EXPIRED);
            current = outcome.get();
        }
        return current instanceof LockLostException lost ? lost : null;
    }

    /** Records the loss unless the hold was already released or lost; runs the callbacks once. */
    void markLost(Reason reason) {
        LockLostException lost =
                new LockLostException(key, reason, Duration.ofNanos(System.nanoTime() - acquiredNanos));
        if (!outcome.compareAndSet(null, lost)) {
            return;
        }
        List<Consumer<LockLostException>> toRun;
        synchronized (this) {
            toRun = callbacks;
            callbacks = null;
        }
        if (toRun != null) {
            toRun.forEach(callback -> runCallback(callback, lost));
        }
    }

    /** Ends the hold normally; false if it had been lost first. */
    boolean markReleased() {
        return outcome.compareAndSet(null, RELEASED);
    }

    void onLost(Consumer<LockLostException> callback) {
        synchronized (this) {
            if (outcome.get() == null) {
                if (callbacks == null) {
                    callbacks = new ArrayList<>(1);
                }
                callbacks.add(callback);
                return;
            }
        }
        if (outcome.get() instanceof LockLostException lost) {
            runCallback(callback, lost);
        }
    }

    private void runCallback(Consumer<LockLostException> callback, LockLostException lost) {
        callbackExecutor.execute(() -> callback.accept(lost));
    }

    @Override
    public String toString() {
        return "Hold[key=" + key + ", fencingToken=" + fencingToken + ", lease=" + lease + "]";
    }
}
