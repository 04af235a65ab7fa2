package io.distlock.internal.engine;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.internal.text.PrintableText;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link LockHandle} of one acquisition on a backend's hold: a re-entry gets its own handle on the same hold. The
 * handle keeps its own lease and whether it was released, and asks its {@link HoldOperations} for everything else. For
 * lock implementations, which return it from their acquisitions; applications see a {@link LockHandle}.
 *
 * <p>A handle that becomes unreachable without being released is forgotten once the garbage collector finds it, with
 * a warning: otherwise its hold would be renewed for as long as the application runs. Nothing is sent to the store,
 * since the work that asked for the lock may still run: the key expires with its lease, as a dead holder's would.
 *
 * @param <H> the backend's hold
 */
public final class HoldHandle<H extends HeldKey> implements LockHandle {

    private static final Logger log = LoggerFactory.getLogger(HoldHandle.class);
    private static final Cleaner DROPPED_HANDLES = Cleaner.create(task -> {
        Thread thread = new Thread(task, "distlock-dropped-handles");
        thread.setDaemon(true);
        return thread;
    });

    private final HoldOperations<H> holds;
    private final H hold;
    private final Lease lease;
    private final AtomicBoolean released = new AtomicBoolean();
    private final Cleaner.Cleanable whenDropped;
    /** When the grant reached this handle, which is after the store made it: a minimum hold counts from here. */
    private final long acquiredNanos = System.nanoTime();

    /**
     * A new handle on a hold, for a new acquisition or a re-entry; the backend has counted it on the hold already.
     *
     * @param holds what serves the hold
     * @param hold the hold
     * @param lease the lease this acquisition asked for
     */
    public HoldHandle(HoldOperations<H> holds, H hold, Lease lease) {
        this.holds = holds;
        this.hold = hold;
        this.lease = lease;
        this.whenDropped = DROPPED_HANDLES.register(this, new ForgetDropped<>(holds, hold, lease, released));
    }

    /**
     * The hold this handle is on.
     *
     * @return the hold
     */
    public H hold() {
        return hold;
    }

    /**
     * Whether this handle's hold is served by {@code holds}: a backend's way to find its own handles among any.
     *
     * @param holds a backend's holds
     * @return true if this handle was made for them
     */
    public boolean belongsTo(HoldOperations<?> holds) {
        return this.holds == holds;
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
        return hold.ownerToken();
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
            throw alreadyReleased();
        }
        holds.extend(hold, lease);
    }

    @Override
    public boolean isLost() {
        return holds.isLost(hold);
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
            throw alreadyReleased();
        }
        whenDropped.clean();
        holds.release(hold, lease);
    }

    @Override
    public void releaseHoldingAtLeast(Duration minimum) {
        long minimumNanos = Lease.fixed(minimum).duration().toNanos();
        long restNanos = minimumNanos - (System.nanoTime() - acquiredNanos);
        // Whole milliseconds, rounded up, since stores count in them and a minimum must never come out short.
        long restMillis = (restNanos + 999_999) / 1_000_000;
        if (restMillis <= 0) {
            release();
            return;
        }
        if (!released.compareAndSet(false, true)) {
            throw alreadyReleased();
        }
        whenDropped.clean();
        holds.releaseHolding(hold, lease, Duration.ofMillis(restMillis));
    }

    /**
     * {@inheritDoc}
     *
     * <p>No thread waits for the store: the stage completes on a thread of the lock's own, never on one of the store
     * client's, so dependent stages may block.
     */
    @Override
    public CompletionStage<Void> releaseAsync() {
        if (!released.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(alreadyReleased());
        }
        whenDropped.clean();
        try {
            return holds.releaseAsync(hold, lease);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            whenDropped.clean();
            holds.release(hold, lease);
        }
    }

    /** The current thread owns this handle's hold through a {@link JavaLockView}. */
    void boundToCurrentThread() {
        hold.boundTo(Thread.currentThread().getName());
    }

    private IllegalStateException alreadyReleased() {
        return new IllegalStateException(
                "lock '" + PrintableText.of(key()) + "' was already released through this handle");
    }

    @Override
    public String toString() {
        return "LockHandle[key=" + key() + ", fencingToken=" + fencingToken() + ", lease=" + lease
                + (released.get() ? ", released" : "") + "]";
    }

    /** Runs when a handle was collected; does nothing if it had been released. Holds no reference to the handle. */
    private record ForgetDropped<H extends HeldKey>(
            HoldOperations<H> holds, H hold, Lease lease, AtomicBoolean released) implements Runnable {

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
