package io.distlock.store;

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

/** One acquisition's handle on a {@link StoreHold}; a re-entry gets its own handle on the same hold. */
final class StoreLockHandle implements LockHandle {

    private static final Logger log = LoggerFactory.getLogger(StoreLockHandle.class);
    private static final Cleaner DROPPED_HANDLES = Cleaner.create(task -> {
        Thread thread = new Thread(task, "distlock-store-dropped-handles");
        thread.setDaemon(true);
        return thread;
    });

    private final StoreHolds holds;
    private final StoreHold hold;
    private final Lease lease;
    private final AtomicBoolean released = new AtomicBoolean();
    private final Cleaner.Cleanable whenDropped;

    StoreLockHandle(StoreHolds holds, StoreHold hold, Lease lease) {
        this.holds = holds;
        this.hold = hold;
        this.lease = lease;
        this.whenDropped = DROPPED_HANDLES.register(this, new ForgetDropped(holds, hold, released));
    }

    StoreHold hold() {
        return hold;
    }

    boolean belongsTo(StoreHolds owner) {
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
        return hold.owner();
    }

    @Override
    public Lease lease() {
        return lease;
    }

    @Override
    public boolean isHeld() {
        return !released.get() && hold.isHeld();
    }

    @Override
    public Duration remainingLease() {
        return released.get() ? Duration.ZERO : hold.remainingLease();
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
        return hold.isLost();
    }

    @Override
    public void onLost(Consumer<LockLostException> callback) {
        if (callback == null) {
            throw new IllegalArgumentException("callback must not be null");
        }
        hold.onLost(callback);
    }

    @Override
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw alreadyReleased();
        }
        whenDropped.clean();
        holds.release(hold);
    }

    /** Releases on the lock's own threads, so that an event loop never waits for the store. */
    @Override
    public CompletionStage<Void> releaseAsync() {
        if (!released.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(alreadyReleased());
        }
        whenDropped.clean();
        return CompletableFuture.runAsync(() -> holds.release(hold), holds.work());
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            whenDropped.clean();
            holds.release(hold);
        }
    }

    private IllegalStateException alreadyReleased() {
        return new IllegalStateException("lock '" + hold.key() + "' was already released through this handle");
    }

    @Override
    public String toString() {
        return "LockHandle[key=" + hold.key() + ", fencingToken=" + hold.fencingToken() + ", lease=" + lease
                + (released.get() ? ", released" : "") + "]";
    }

    private record ForgetDropped(StoreHolds holds, StoreHold hold, AtomicBoolean released) implements Runnable {
        @Override
        public void run() {
            if (!released.compareAndSet(false, true)) {
                return;
            }
            log.warn(
                    "A handle of lock '{}' was dropped without being released: it is no longer renewed, and the key "
                            + "expires with its lease. Release every handle, for example with try-with-resources",
                    hold.key());
            holds.dropped(hold);
        }
    }
}
