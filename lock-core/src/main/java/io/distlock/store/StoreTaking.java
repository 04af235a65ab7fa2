package io.distlock.store;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.internal.engine.GuardedObserver;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.spi.HoldSettings;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Takes a key from the store for a new owner, once or waiting, and starts the hold it grants; the observer sees every
 * acquisition, and the inspection every waiter. A {@link StoreLock} comes here once no scope of the caller's thread
 * holds the key.
 */
final class StoreTaking {

    /** The wait of an acquisition that waits until it has the key. */
    static final long FOREVER = Long.MAX_VALUE;

    private final LeaseStore store;
    private final HoldSettings settings;
    private final StoreHolds holds;
    private final GuardedObserver observer;
    private final StoreInspection inspection;
    private final AtomicBoolean closed;
    private final CallsUnderWay calls;
    private final LockKind lockKind;
    private final @Nullable String tree;
    private final Object lock;

    /**
     * @param lockKind what the observer sees the acquisitions as
     * @param lock the lock this takes keys for, as messages name it
     */
    StoreTaking(StoreLockParts parts, CallsUnderWay calls, LockKind lockKind, Object lock) {
        this.store = parts.store();
        this.settings = parts.settings();
        this.holds = parts.side().holds();
        this.observer = parts.observer();
        this.inspection = parts.inspection();
        this.closed = parts.closed();
        this.calls = calls;
        this.lockKind = lockKind;
        this.tree = PathLeaseStore.treeOf(parts.store());
        this.lock = lock;
    }

    /** Tries the key once, on the caller's thread. */
    @Nullable
    LockHandle once(String key, Lease lease) {
        LockObserver.Acquisition observed = observer.acquisitionStarted(tree == null ? key : tree, lockKind);
        String owner = newOwner();
        try (LeaseStore.Acquisition attempt =
                store.begin(key, owner, settings.instanceName(), settings.storeLease(lease))) {
            if (closed.get()) {
                throw closedLock(key, lock);
            }
            long sent = System.nanoTime();
            StoreLease granted = attempt.tryTake();
            return observed(observed, granted == null ? null : holds.start(key, owner, granted, lease, sent));
        } catch (RuntimeException e) {
            observed.failed(e);
            throw e;
        }
    }

    /**
     * Waits for the key. The store's calls run on worker threads, so the caller ends at its deadline plus a short
     * grace, or at once when interrupted, whatever the store's own timeouts: see {@link BoundedAcquisition}.
     *
     * @param waitNanos how long to wait, or {@link #FOREVER}
     */
    @Nullable
    LockHandle waiting(String key, Lease lease, long waitNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before waiting for lock '" + PrintableText.of(key) + "'");
        }
        boolean unbounded = waitNanos == FOREVER;
        long deadline = System.nanoTime() + (unbounded ? FOREVER / 4 : waitNanos);
        LockObserver.Acquisition observed = observer.acquisitionStarted(tree == null ? key : tree, lockKind);
        String owner = newOwner();
        inspection.waitStarted(key);
        try (BoundedAcquisition attempt = new BoundedAcquisition(
                store.begin(key, owner, settings.instanceName(), settings.storeLease(lease)),
                store,
                calls,
                key,
                deadline,
                unbounded)) {
            while (true) {
                if (closed.get()) {
                    throw closedLock(key, lock);
                }
                BoundedAcquisition.Taken taken = attempt.tryTake();
                LockHandle handle =
                        taken.lease() == null ? null : holds.start(key, owner, taken.lease(), lease, taken.sentNanos());
                if (handle != null || (!unbounded && System.nanoTime() - deadline >= 0)) {
                    return observed(observed, handle);
                }
                attempt.awaitChance(deadline);
            }
        } catch (RuntimeException | InterruptedException e) {
            observed.failed(e);
            throw e;
        } finally {
            inspection.waitEnded(key);
        }
    }

    /** What an acquisition of a closed lock throws. */
    static IllegalStateException closedLock(String key, Object lock) {
        return new IllegalStateException("lock '" + PrintableText.of(key) + "' cannot be acquired: " + lock
                + " is closed (the application is shutting down)");
    }

    @Nullable
    private static LockHandle observed(LockObserver.Acquisition observed, @Nullable LockHandle handle) {
        if (handle == null) {
            observed.notAcquired();
        } else {
            observed.acquired();
        }
        return handle;
    }

    private static String newOwner() {
        return UUID.randomUUID().toString();
    }
}
