package io.distlock.store;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.internal.engine.GuardedObserver;
import io.distlock.internal.engine.HoldHandle;
import io.distlock.internal.engine.HoldOperations;
import io.distlock.monitor.LockKind;
import io.distlock.spi.HoldSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The holds of one {@link StoreLock}: it keeps each one's lease (renewals for renewed leases, a deadline timer for
 * every lease), extends and releases them in the store, and reports their loss; and serves their handles.
 */
final class StoreHolds implements HoldOperations<StoreHold> {

    private static final Logger log = LoggerFactory.getLogger(StoreHolds.class);

    private final HoldSettings settings;
    private final GuardedObserver observer;
    private final LockKind kind;
    private final Set<StoreHold> live = ConcurrentHashMap.newKeySet();

    private final @Nullable String tree;

    /**
     * @param kind what the holds are: a key's ({@code EXCLUSIVE}) or a semaphore's permits
     * @param tree for the holds of a tree's paths, the tree, under whose name the observer sees them; else null
     */
    StoreHolds(HoldSettings settings, GuardedObserver observer, LockKind kind, @Nullable String tree) {
        this.tree = tree;
        this.settings = settings;
        this.observer = observer;
        this.kind = kind;
    }

    private static Executor work() {
        return StoreThreads.work();
    }

    HoldHandle<StoreHold> start(String key, String owner, StoreLease lease, Lease requested, long sentNanos) {
        StoreHold hold = new StoreHold(
                key,
                owner,
                lease,
                requested,
                sentNanos,
                settings.storeLease(requested),
                kind,
                tree,
                observer.holdStarted(tree == null ? key : tree, kind, lease.fencingToken()));
        live.add(hold);
        lease.whenGone((Reason reason) -> work().execute(() -> lost(hold, reason)));
        schedule(hold, Math.min(hold.deadlineNanos(), nextRenewal(hold)));
        return new HoldHandle<>(this, hold, requested);
    }

    @Override
    public boolean isHeld(StoreHold hold) {
        return hold.isHeld();
    }

    @Override
    public Duration remainingLease(StoreHold hold) {
        return hold.remainingLease();
    }

    @Override
    public boolean isLost(StoreHold hold) {
        return hold.isLostOrDue(lateReason(hold));
    }

    @Override
    public void onLost(StoreHold hold, Consumer<LockLostException> callback) {
        hold.onLost(callback);
    }

    @Override
    public void extend(StoreHold hold, Duration lease) {
        Duration checked = Lease.fixed(lease).duration();
        if (isLost(hold)) {
            throw hold.lostException();
        }
        if (!hold.isActive()) {
            throw new IllegalStateException("lock '" + hold.key() + "' was already released");
        }
        long sent = System.nanoTime();
        if (!hold.callStore(() -> hold.lease().extend(checked))) {
            lost(hold, whyGone(hold));
            throw hold.lostException();
        }
        hold.leaseMoved(sent, checked);
        schedule(hold, Math.min(hold.deadlineNanos(), nextRenewal(hold)));
    }

    /**
     * Asks the store whether the hold's key is still its own, one call at a time with the hold's other store calls. A
     * hold that the store no longer grants is reported lost, whoever still waits for the answer.
     */
    Optional<Reason> checkOwned(StoreHold hold) {
        Optional<Reason> gone = hold.callStore(() -> hold.lease().checkOwned());
        gone.ifPresent(reason -> lost(hold, reason));
        return gone;
    }

    /** A store hold keeps the lease of its first acquisition, whatever its re-entries asked for: no handle's counts. */
    @Override
    public void release(StoreHold hold, Lease handleLease) {
        if (!hold.closeHandle()) {
            return;
        }
        forget(hold);
        if (!hold.callStore(() -> hold.lease().release())) {
            hold.lostAtRelease(whyGone(hold));
            throw hold.lostException();
        }
        hold.released();
    }

    /** A store's extension sets the remaining lease on its own clock, which is all a minimum hold needs. */
    @Override
    public void releaseHolding(StoreHold hold, Lease handleLease, Duration rest) {
        if (!hold.closeHandle()) {
            return;
        }
        forget(hold);
        if (!hold.callStore(() -> hold.lease().extend(rest))) {
            hold.lostAtRelease(whyGone(hold));
            throw hold.lostException();
        }
        hold.released();
    }

    /** Releases on the lock's own threads, so that an event loop never waits for the store. */
    @Override
    public CompletionStage<Void> releaseAsync(StoreHold hold, Lease handleLease) {
        return CompletableFuture.runAsync(() -> release(hold, handleLease), work());
    }

    /** The holds that are live now, oldest first. */
    List<StoreHold> snapshot() {
        List<StoreHold> now = new ArrayList<>(live);
        now.sort(Comparator.comparingLong(StoreHold::acquiredNanos));
        return now;
    }

    /** How many holds are live now. */
    int count() {
        return live.size();
    }

    /** Whether a live hold of this lock holds the key now. */
    boolean holdsKey(String key) {
        return live.stream().anyMatch(hold -> hold.key().equals(key) && hold.isHeld());
    }

    @Override
    public void dropped(StoreHold hold, Lease handleLease) {
        if (hold.dropHandle()) {
            forget(hold);
        }
    }

    /**
     * Waits up to the grace period for the live holds to be released, then reports the others lost.
     *
     * @return how many holds were still live at the end of the grace period
     */
    int close(long graceNanos) throws InterruptedException {
        long deadline = System.nanoTime() + graceNanos;
        synchronized (live) {
            long left;
            while (!live.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(live, left);
            }
        }
        int abandoned = 0;
        for (StoreHold hold : live) {
            hold.lost(Reason.CLIENT_CLOSED);
            abandoned++;
        }
        live.clear();
        return abandoned;
    }

    /**
     * Why the store no longer grants a hold whose extension or release found its key gone: {@link Reason#KEY_GONE}
     * unless the store, asked once more, knows better (an operator freed it, say). Only a lost hold pays the read.
     */
    private static Reason whyGone(StoreHold hold) {
        try {
            return hold.callStore(() -> hold.lease().checkOwned()).orElse(Reason.KEY_GONE);
        } catch (RuntimeException e) {
            return Reason.KEY_GONE;
        }
    }

    private void lost(StoreHold hold, Reason reason) {
        hold.lost(reason);
        forget(hold);
    }

    private void forget(StoreHold hold) {
        live.remove(hold);
        if (live.isEmpty()) {
            synchronized (live) {
                live.notifyAll();
            }
        }
    }

    /**
     * The clock's tick for one hold: at its deadline, a hold not renewed or extended in time is lost; a renewed hold
     * also starts its renewal when due.
     */
    private void tick(StoreHold hold) {
        if (hold.lostIfDue(lateReason(hold))) {
            forget(hold);
            return;
        }
        if (hold.requested().isRenewed() && !pastMaxHold(hold) && hold.startRenewal()) {
            work().execute(() -> renew(hold));
        }
        schedule(hold, Math.min(hold.deadlineNanos(), nextRenewal(hold)));
    }

    /** Why a hold whose deadline passed is lost: its renewals did not get through, or its fixed lease ran out. */
    private Reason lateReason(StoreHold hold) {
        if (!hold.requested().isRenewed()) {
            return Reason.LEASE_EXPIRED;
        }
        return pastMaxHold(hold) ? Reason.MAX_HOLD_REACHED : Reason.RENEWAL_FAILED;
    }

    private boolean pastMaxHold(StoreHold hold) {
        return settings.pastMaxHold(hold.acquiredNanos());
    }

    private long nextRenewal(StoreHold hold) {
        return hold.requested().isRenewed() && !pastMaxHold(hold)
                ? System.nanoTime() + settings.renewInterval().toNanos()
                : Long.MAX_VALUE;
    }

    private void schedule(StoreHold hold, long atNanos) {
        long delay = Math.max(0, atNanos - System.nanoTime());
        hold.watchWith(StoreThreads.clock().schedule(() -> tick(hold), delay, TimeUnit.NANOSECONDS));
    }

    private void renew(StoreHold hold) {
        try {
            if (!hold.isActive()) {
                return;
            }
            long sent = System.nanoTime();
            if (hold.callStore(() -> hold.lease().extend(settings.watchdogLease()))) {
                hold.leaseMoved(sent, settings.watchdogLease());
                observer.renewed(1);
            } else {
                lost(hold, whyGone(hold));
            }
        } catch (RuntimeException e) {
            log.warn(
                    "Renewing lock '{}' failed; it is tried again until its lease runs out ({} left)",
                    hold.key(),
                    hold.remainingLease(),
                    e);
            observer.renewalFailed(1);
        } finally {
            hold.renewalDone();
        }
    }
}
