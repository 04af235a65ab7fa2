package io.distlock.redis.internal.engine;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.internal.engine.HeldKey;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver.Holding;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition in Redis (one owner token), shared by the outer handle and the nested handles of the same owner.
 *
 * <p>Each handle keeps the lease it asked for. The hold is renewed while at least one open handle asked for a renewed
 * lease, and its key lives at least as long as every open fixed lease asked: renewals and nested acquisitions only
 * ever lengthen the key's remaining lease, never shorten it.
 *
 * <p>It keeps a conservative local estimate of when Redis will expire the key: the time a confirming command was
 * <em>sent</em>, plus the lease it set, by the monotonic clock. Once that passes without a newer confirmation the hold
 * counts as lost, even if Redis would still answer that it owns the key.
 */
public final class Hold implements HeldKey {

    private static final Object RELEASED = new Object();
    private static final Holding UNOBSERVED = new Holding() {};

    private final String key;
    private final String lockKey;
    private final String token;
    private final long fencingToken;
    private final Lease lease;
    private final long leaseMillis;
    private final long acquiredNanos;
    private final Executor callbackExecutor;
    private final LockKind kind;
    private final long sinceEpochMillis = System.currentTimeMillis();
    private final String acquiredBy = Thread.currentThread().getName();

    /** What hears how the hold ends; null before it is observed, {@link #UNOBSERVED} once it ended or never will be. */
    private final AtomicReference<@Nullable Holding> holding = new AtomicReference<>();

    private volatile @Nullable String boundThread;

    /** Guarded by this. */
    private int openHandles = 1;
    /** Open handles with a renewed lease; guarded by this. */
    private int renewedHandles;
    /** null while held; {@link #RELEASED} after a normal release; the {@link LockLostException} once lost. */
    private final AtomicReference<@Nullable Object> outcome = new AtomicReference<>();

    private volatile long expiresByNanos;
    /** Set once the hold reached the lock's maximum hold: its renewals stopped. */
    private volatile boolean renewalsStopped;

    /**
     * Set once a handle asked for a renewed lease or the lease was extended: a command then set the key's lease exactly,
     * perhaps shorter than a run of local handovers counted on, so the hold never hands over locally.
     */
    private volatile boolean leaseReset;

    private @Nullable List<Consumer<LockLostException>> callbacks;

    Hold(
            String key,
            String lockKey,
            String token,
            long fencingToken,
            Lease lease,
            long leaseMillis,
            long sentNanos,
            Executor callbackExecutor,
            LockKind kind) {
        this.key = key;
        this.lockKey = lockKey;
        this.token = token;
        this.fencingToken = fencingToken;
        this.lease = lease;
        this.leaseMillis = leaseMillis;
        this.renewedHandles = lease.isRenewed() ? 1 : 0;
        this.leaseReset = lease.isRenewed();
        this.acquiredNanos = sentNanos;
        this.expiresByNanos = sentNanos + Duration.ofMillis(leaseMillis).toNanos();
        this.callbackExecutor = callbackExecutor;
        this.kind = kind;
    }

    /**
     * Whether the hold was taken through the {@linkplain io.distlock.redis.FairLock fair lock}, whose release serves
     * its queue.
     */
    boolean isFair() {
        return kind == LockKind.FAIR;
    }

    /**
     * Whether the hold is a reader's ({@link io.distlock.redis.ReadLock}): its token is a field of the lock key, then a
     * hash.
     */
    boolean isRead() {
        return kind == LockKind.READ;
    }

    /** Whether the hold is a semaphore's permit: a field of the permits key, as a reader's share is of the lock key. */
    boolean isPermit() {
        return kind == LockKind.SEMAPHORE;
    }

    /** How the hold was taken; for a path, its holder key is the lock key. */
    public LockKind kind() {
        return kind;
    }

    @Override
    public String key() {
        return key;
    }

    public String lockKey() {
        return lockKey;
    }

    public String token() {
        return token;
    }

    @Override
    public String ownerToken() {
        return token;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    public long expiresByNanos() {
        return expiresByNanos;
    }

    /** Adds a handle with the given lease to this hold, unless its last handle was already released. */
    synchronized boolean join(Lease handleLease) {
        if (openHandles == 0) {
            return false;
        }
        openHandles++;
        if (handleLease.isRenewed()) {
            renewedHandles++;
            leaseReset = true;
        }
        return true;
    }

    /** Removes a handle with the given lease; true if it was the last, so the lock must now be released in Redis. */
    synchronized boolean leave(Lease handleLease) {
        if (handleLease.isRenewed()) {
            renewedHandles--;
        }
        return --openHandles == 0;
    }

    /** A command that sets the key's lease exactly is about to be sent for this hold. */
    void leaseReset() {
        leaseReset = true;
    }

    /**
     * Whether the hold may hand its key over inside this process ({@link LocalHandovers}): no command but
     * confirmations, which only ever lengthen the key's lease, was sent for it.
     */
    boolean mayHandOverLocally() {
        return !leaseReset;
    }

    /** The renewer stopped renewing this hold, which reached the lock's maximum hold. */
    void stopRenewals() {
        renewalsStopped = true;
    }

    /** Whether an open handle asked for a renewed lease, so the renewer must keep extending the key. */
    synchronized boolean isRenewed() {
        return renewedHandles > 0 && openHandles > 0;
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

    /** Whether the hold is over, released or lost: nothing renews, waits for or watches it any more. */
    boolean hasEnded() {
        return isReleased() || lostOrNull() != null;
    }

    /** The loss of this hold if it is known or the lease estimate has run out; null while it is believed held. */
    @Nullable
    LockLostException lostOrNull() {
        Object current = outcome.get();
        if (current == null && System.nanoTime() - expiresByNanos >= 0) {
            markLost(
                    renewalsStopped
                            ? Reason.MAX_HOLD_REACHED
                            : isRenewed() ? Reason.RENEWAL_FAILED : Reason.LEASE_EXPIRED);
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
        ended().lost(reason);
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
        if (!outcome.compareAndSet(null, RELEASED)) {
            return false;
        }
        ended().released();
        return true;
    }

    /** The last handle was collected without a release: nobody will end the hold, so its observer hears it now. */
    void markDropped() {
        ended().dropped();
    }

    /**
     * Starts observing the hold, unless it is observed already (a nested acquisition joined it) or has ended unheard. A
     * hold that ends while its observer starts tells that observer at once.
     */
    void observe(Supplier<Holding> observer) {
        if (holding.get() != null) {
            return;
        }
        Holding started = observer.get();
        if (holding.compareAndSet(null, started)) {
            return;
        }
        Object current = outcome.get();
        if (current instanceof LockLostException lost) {
            started.lost(lost.reason());
        } else if (current == RELEASED) {
            started.released();
        } else {
            started.dropped();
        }
    }

    /** The observer of the hold's end, once; afterwards, and for a hold never observed, one that hears nothing. */
    private Holding ended() {
        Holding observer = holding.getAndSet(UNOBSERVED);
        return observer == null ? UNOBSERVED : observer;
    }

    /**
     * Marks the hold as owned by one thread, which alone may release it: a {@link
     * io.distlock.internal.engine.JavaLockView}'s.
     */
    @Override
    public void boundTo(String threadName) {
        boundThread = threadName;
    }

    /** How the inspection shows the hold; the owner token stays out. */
    public HeldLock view(@Nullable String tree) {
        long now = System.nanoTime();
        int handles;
        boolean renewedNow;
        synchronized (this) {
            handles = openHandles;
            renewedNow = renewedHandles > 0;
        }
        return new HeldLock(
                key,
                tree,
                kind,
                Instant.ofEpochMilli(sinceEpochMillis),
                Duration.ofNanos(now - acquiredNanos),
                renewedNow,
                Duration.ofNanos(Math.max(0, expiresByNanos - now)),
                fencingToken,
                acquiredBy,
                boundThread,
                handles);
    }

    public long acquiredNanos() {
        return acquiredNanos;
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
