package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A handle on a {@link Hold}; nested acquisitions of the same owner get their own handles on one hold.
 *
 * <p>A handle that becomes unreachable without being released stops counting once the garbage collector finds it, with
 * a warning: otherwise its hold would be renewed for as long as the application runs. Nothing is sent to Redis, since
 * the work that asked for the lock may still run: the key expires with its lease, as a dead holder's would.
 */
final class RedisLockHandle implements LockHandle {

    private static final Logger log = LoggerFactory.getLogger(RedisLockHandle.class);
    private static final Cleaner DROPPED_HANDLES = Cleaner.create(task -> {
        Thread thread = new Thread(task, "distlock-dropped-handles");
        thread.setDaemon(true);
        return thread;
    });

    private final Holds holds;
    private final Hold hold;
    private final Lease lease;
    private final AtomicBoolean released;
    private final Cleaner.Cleanable whenDropped;

    RedisLockHandle(Holds holds, Hold hold, Lease lease) {
        this.holds = holds;
        this.hold = hold;
        this.lease = lease;
        this.released = new AtomicBoolean();
        this.whenDropped = DROPPED_HANDLES.register(this, new ForgetDropped(holds, hold, lease, released));
    }

    Hold hold() {
        return hold;
    }

    boolean belongsTo(Holds owner) {
        return holds == owner;
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
        return lease;
    }

    @Override
    public boolean isHeld() {
        return !released.get() && holds.isHeld(hold);
    }

    @Override
    public Duration remainingLease() {
        return released.get() ? Duration.ZERO : holds.remainingLease(hold);
    }

    @Override
    public void extend(Duration lease) {
        if (released.get()) {
            throw new IllegalStateException("lock '" + hold.key() + "' was already released through this handle");
        }
        holds.extend(hold, lease);
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
        holds.onLost(hold, callback);
    }

    @Override
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("lock '" + hold.key() + "' was already released through this handle");
        }
        whenDropped.clean();
        holds.release(hold, lease);
    }

    /**
     * {@inheritDoc}
     *
     * <p>No thread waits for Redis: the stage completes on a daemon thread of distlock's, never on a thread of the
     * Redis client.
     */
    @Override
    public CompletionStage<Void> releaseAsync() {
        if (!released.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("lock '" + hold.key() + "' was already released through this handle"));
        }
        whenDropped.clean();
        CompletableFuture<Void> release;
        try {
            release = holds.releaseAsync(hold, lease);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return release.whenCompleteAsync((done, failure) -> {}, AsyncThreads.shared());
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            whenDropped.clean();
            holds.release(hold, lease);
        }
    }

    @Override
    public String toString() {
        return "LockHandle[key=" + hold.key() + ", fencingToken=" + hold.fencingToken() + ", lease=" + lease
                + (released.get() ? ", released" : "") + "]";
    }

    /** Runs when a handle was collected; does nothing if it had been released. Holds no reference to the handle. */
    private record ForgetDropped(Holds holds, Hold hold, Lease lease, AtomicBoolean released) implements Runnable {

        @Override
        public void run() {
            if (!released.compareAndSet(false, true)) {
                return;
            }
            log.warn(
                    "A handle of lock '{}' was dropped without being released: it is no longer renewed, and the key "
                            + "expires with its lease. Release every handle, for example with try-with-resources",
                    hold.key());
            holds.dropped(hold, lease);
        }
    }
}
