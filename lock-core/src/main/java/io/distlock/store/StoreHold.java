package io.distlock.store;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.internal.engine.HeldKey;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One grant of a key to one owner, shared by the handles of its scope's re-entries. It knows, by the holder's monotonic
 * clock, a deadline that never lies after the store's expiry: every deadline counts from before the request that set
 * the lease was sent.
 */
final class StoreHold implements HeldKey {

    private enum State {
        HELD,
        ENDED,
        LOST
    }

    private final String key;
    private final String owner;
    private final StoreLease lease;
    private final Lease requested;
    private final long acquiredNanos;
    private final long sinceEpochMillis = System.currentTimeMillis();
    private final String acquiredBy = Thread.currentThread().getName();
    private volatile @Nullable String boundThread;
    private final LockObserver.Holding observed;
    private final ReentrantLock storeCalls = new ReentrantLock();
    private final List<Consumer<LockLostException>> lostCallbacks = new ArrayList<>();

    private State state = State.HELD;
    /** What kind of hold this is: a key's, or a semaphore's permit. */
    private final LockKind kind;
    /** For a path's hold, its tree; else null. */
    private final @Nullable String tree;

    private @Nullable Reason lostReason;
    private long lostNanos;
    private int openHandles = 1;
    private boolean renewing;
    private long deadlineNanos;
    private @Nullable ScheduledFuture<?> timer;

    StoreHold(
            String key,
            String owner,
            StoreLease lease,
            Lease requested,
            long sentNanos,
            Duration storeLease,
            LockKind kind,
            @Nullable String tree,
            LockObserver.Holding observed) {
        this.key = key;
        this.kind = kind;
        this.tree = tree;
        this.observed = observed;
        this.owner = owner;
        this.lease = lease;
        this.requested = requested;
        this.acquiredNanos = sentNanos;
        this.deadlineNanos = sentNanos + storeLease.toNanos();
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public String ownerToken() {
        return owner;
    }

    @Override
    public long fencingToken() {
        return lease.fencingToken();
    }

    Lease requested() {
        return requested;
    }

    StoreLease lease() {
        return lease;
    }

    synchronized boolean isHeld() {
        return state == State.HELD && System.nanoTime() - deadlineNanos < 0;
    }

    synchronized boolean isLost() {
        return state == State.LOST;
    }

    /**
     * Whether the hold is lost, counting a deadline that passed while the clock thread has not yet marked it (a busy
     * machine delays that thread): such a hold is marked lost now, so that {@code isLost()} errs on the side of lost.
     */
    boolean isLostOrDue(Reason reason) {
        synchronized (this) {
            if (state != State.HELD) {
                return state == State.LOST;
            }
            if (System.nanoTime() - deadlineNanos < 0) {
                return false;
            }
        }
        lost(reason);
        return true;
    }

    synchronized boolean isActive() {
        return state == State.HELD;
    }

    synchronized long deadlineNanos() {
        return deadlineNanos;
    }

    synchronized Duration remainingLease() {
        return state == State.HELD ? Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())) : Duration.ZERO;
    }

    /** Opens one more handle on this hold for a re-entry; false if the hold already ended normally. */
    synchronized boolean join() {
        if (state == State.LOST) {
            throw lostException();
        }
        if (state == State.ENDED) {
            return false;
        }
        openHandles++;
        return true;
    }

    /** Replaces the timer that watches this hold; the old one is cancelled. */
    synchronized void watchWith(ScheduledFuture<?> next) {
        if (timer != null) {
            timer.cancel(false);
        }
        if (state == State.HELD) {
            timer = next;
        } else {
            next.cancel(false);
        }
    }

    /** Runs a call on the store for this hold; calls never overlap, as {@link StoreLease} expects. */
    <T> T callStore(java.util.function.Supplier<T> call) {
        storeCalls.lock();
        try {
            return call.get();
        } finally {
            storeCalls.unlock();
        }
    }

    /** A renewal or extension confirmed by the store moves the deadline, unless the hold ended meanwhile. */
    synchronized void leaseMoved(long sentNanos, Duration storeLease) {
        if (state == State.HELD) {
            deadlineNanos = sentNanos + storeLease.toNanos();
        }
    }

    /**
     * Closes one handle; true when it was the last one, and the caller now releases the key in the store.
     *
     * @throws LockLostException if the hold was lost
     */
    synchronized boolean closeHandle() {
        openHandles--;
        if (state == State.LOST) {
            throw lostException();
        }
        if (openHandles > 0 || state == State.ENDED) {
            return false;
        }
        state = State.ENDED;
        cancelTimer();
        return true;
    }

    /** A handle was dropped without release; the last one ends the hold locally and the key runs out in the store. */
    synchronized boolean dropHandle() {
        openHandles--;
        if (openHandles > 0 || state != State.HELD) {
            return false;
        }
        state = State.ENDED;
        cancelTimer();
        observed.dropped();
        return true;
    }

    /** Starts a renewal unless one is still under way (a slow store must not pile them up); false if one is. */
    synchronized boolean startRenewal() {
        if (renewing || state != State.HELD) {
            return false;
        }
        renewing = true;
        return true;
    }

    synchronized void renewalDone() {
        renewing = false;
    }

    /** The store confirmed the release that {@link #closeHandle()} started. */
    void released() {
        observed.released();
    }

    /** The store had no longer this owner's key at release: the hold, ended by the release, was in fact lost. */
    void lostAtRelease(Reason reason) {
        lostFrom(State.ENDED, reason);
    }

    /** Marks the hold lost if it was still held, and runs the callbacks registered so far; once per hold. */
    void lost(Reason reason) {
        lostFrom(State.HELD, reason);
    }

    private void lostFrom(State from, Reason reason) {
        List<Consumer<LockLostException>> callbacks;
        synchronized (this) {
            if (state != from) {
                return;
            }
            state = State.LOST;
            lostReason = reason;
            lostNanos = System.nanoTime();
            cancelTimer();
            callbacks = List.copyOf(lostCallbacks);
            lostCallbacks.clear();
        }
        observed.lost(reason);
        LockLostException lost = lostException();
        callbacks.forEach(callback -> runCallback(callback, lost));
    }

    /**
     * Runs a lost-lock callback on a worker thread: never on the clock thread, which a slow callback would keep from
     * other holds' deadlines and renewals, nor on the thread that happened to find the loss.
     */
    private static void runCallback(Consumer<LockLostException> callback, LockLostException lost) {
        StoreThreads.work().execute(() -> callback.accept(lost));
    }

    /** Marks the hold lost if its deadline passed while it was held; false if the deadline still lies ahead. */
    boolean lostIfDue(Reason reason) {
        synchronized (this) {
            if (state != State.HELD) {
                return true;
            }
            if (System.nanoTime() - deadlineNanos < 0) {
                return false;
            }
        }
        lost(reason);
        return true;
    }

    void onLost(Consumer<LockLostException> callback) {
        synchronized (this) {
            if (state != State.LOST) {
                lostCallbacks.add(callback);
                return;
            }
        }
        runCallback(callback, lostException());
    }

    /**
     * Marks the hold as owned by one thread, which alone may release it: a {@link
     * io.distlock.internal.engine.JavaLockView}'s.
     */
    @Override
    public void boundTo(String threadName) {
        boundThread = threadName;
    }

    /** What the Actuator view shows of this hold, from memory. */
    synchronized HeldLock view() {
        long now = System.nanoTime();
        return new HeldLock(
                key,
                tree,
                kind,
                Instant.ofEpochMilli(sinceEpochMillis),
                Duration.ofNanos(now - acquiredNanos),
                requested.isRenewed(),
                Duration.ofNanos(Math.max(0, deadlineNanos - now)),
                lease.fencingToken(),
                acquiredBy,
                boundThread,
                openHandles);
    }

    synchronized long acquiredNanos() {
        return acquiredNanos;
    }

    synchronized LockLostException lostException() {
        Reason reason = lostReason == null ? Reason.KEY_GONE : lostReason;
        return new LockLostException(key, reason, Duration.ofNanos(lostNanos - acquiredNanos));
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
