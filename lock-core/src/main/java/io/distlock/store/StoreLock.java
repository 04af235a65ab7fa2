package io.distlock.store;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.Semaphores;
import io.distlock.Trees;
import io.distlock.internal.engine.InspectedLock;
import io.distlock.internal.engine.JavaLockView;
import io.distlock.internal.engine.LockArguments;
import io.distlock.internal.engine.OfferedKinds;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.BackendState;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import io.distlock.monitor.LockKind;
import io.distlock.spi.HoldSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Lock} of a {@link LeaseStore}: the JDBC and ZooKeeper backends are this class over their store. It adds
 * what every backend shares to the store's few operations:
 *
 * <ul>
 *   <li>re-entry: an acquisition of a key that a {@link LockContext} scope of the calling thread holds through this
 *       lock, or that the thread holds through one of its {@linkplain #asJavaLock JDK lock views}, joins that hold
 *       (same owner and fencing token) once the store confirms that the key is still the hold's ({@link
 *       StoreLease#checkOwned()}, one read), and the key is released by the last handle. The store is asked within
 *       the caller's wait, as below; a hold the store no longer grants is reported lost, and the nested acquisition
 *       throws {@link LockLostException};
 *   <li>leases: a {@link Lease#renewed()} lease is set to the watchdog lease and renewed every renew interval while it
 *       is held; a {@link Lease#fixed(Duration)} lease runs out at its end;
 *   <li>lost locks: each hold keeps a deadline by the holder's monotonic clock, counted from before the request that
 *       set the lease was sent, so it never lies after the store's own expiry. A hold whose deadline passes, whose
 *       renewal finds the key gone, or whose store reports it gone, is lost: {@link LockHandle#isLost()} turns true,
 *       {@link LockHandle#onLost} callbacks run once, and {@link LockHandle#release()} and {@link LockHandle#extend}
 *       throw {@link LockLostException};
 *   <li>waiting: the store's acquisition is tried, and while the key is held and the wait allows, the store's
 *       {@link LeaseStore.Acquisition#awaitChance(long)} waits for the next chance. An interrupt ends the wait with
 *       {@link InterruptedException}, and nothing is left held. The store's calls of a waiting acquisition run on
 *       worker threads: the caller gives up at its deadline (plus at most 100 ms for a call under way), at the store's
 *       {@linkplain LeaseStore#callTimeout() call timeout}, or at its interrupt, whatever the store's driver, pool or
 *       client retries do, and the call given up on is followed by the release of a late grant.
 * </ul>
 *
 * <p>Thread-safe. Holds are owned by their handles, not by threads: a handle can be released from any thread.
 * {@link #close()} waits up to the shutdown grace period for held keys to be released, reports the others lost, and
 * closes the store.
 */
public final class StoreLock extends InspectedLock implements Lock, InspectableLock, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StoreLock.class);

    private final LeaseStore store;
    private final StoreSide side;
    private final StoreReentry reentry;
    private final StoreTaking taking;
    private final HoldSettings settings;
    private final AtomicBoolean closed;
    private final @Nullable StoreSemaphores semaphores;
    private final @Nullable StoreLock readers;
    private final @Nullable StoreLock fair;
    private final @Nullable StoreTrees trees;
    private final LockKind lockKind;
    private final OfferedKinds kinds;

    StoreLock(LeaseStore store, HoldSettings settings, int maxCallsUnderWay) {
        this(store, settings, maxCallsUnderWay, LockKind.EXCLUSIVE, null);
    }

    /**
     * A lock whose acquisitions the observer sees as of the given kind: a semaphore's are {@code SEMAPHORE}, a read
     * side's {@code READ}.
     *
     * @param writer for the read side, the write side, whose scopes a read re-enters; else null
     */
    StoreLock(
            LeaseStore store,
            HoldSettings settings,
            int maxCallsUnderWay,
            LockKind lockKind,
            @Nullable StoreSide writer) {
        this(
                StoreLockParts.of(store, settings, maxCallsUnderWay, lockKind, writer, null),
                new CallsUnderWay(maxCallsUnderWay),
                lockKind);
    }

    /**
     * The lock of one tree's paths, whose keys are canonical paths; it shares its bound on calls under way and its
     * registry of view-owned handles with the other trees.
     */
    StoreLock(PathLeaseStore store, HoldSettings settings, StoreTrees trees) {
        this(
                StoreLockParts.of(store, settings, 0, LockKind.PATH, null, trees.threadOwned()),
                trees.calls(),
                LockKind.PATH);
    }

    private StoreLock(StoreLockParts parts, CallsUnderWay calls, LockKind lockKind) {
        super(parts.inspection());
        this.store = parts.store();
        this.settings = parts.settings();
        this.side = parts.side();
        this.closed = parts.closed();
        this.lockKind = lockKind;
        this.readers = parts.readers();
        this.fair = parts.fair();
        this.trees = parts.trees();
        this.reentry = new StoreReentry(store, side, parts.writer(), readers == null ? null : readers.side, calls);
        this.taking = new StoreTaking(parts, calls, lockKind, this);
        this.semaphores = parts.semaphores();
        this.kinds = offeredKinds(store, semaphores, readers, fair, trees);
    }

    private OfferedKinds offeredKinds(
            LeaseStore store,
            @Nullable StoreSemaphores semaphores,
            @Nullable StoreLock readers,
            @Nullable StoreLock fair,
            @Nullable StoreTrees trees) {
        OfferedKinds offered = OfferedKinds.none();
        if (store.servesWaitersInArrivalOrder()) {
            offered = offered.with(Kind.FAIR, (Lock) this);
        } else if (fair != null) {
            offered = offered.with(Kind.FAIR, (Lock) fair);
        }
        if (semaphores != null) {
            offered = offered.with(Kind.SEMAPHORE, (Semaphores) semaphores);
        }
        if (trees != null) {
            offered = offered.with(Kind.PATH, (Trees) trees);
        }
        return readers == null ? offered : offered.with(Kind.READ, (Lock) readers);
    }

    /**
     * Starts building the lock of a store.
     *
     * @param store the store, which the lock closes when it is closed
     * @return a builder with the defaults: a 30 s watchdog lease renewed every 10 s, and a 10 s shutdown grace period
     */
    public static StoreLockBuilder builder(LeaseStore store) {
        return new StoreLockBuilder(store);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A nested acquisition waits for the store's confirmation up to the store's call timeout, as an attempt does;
     * an interrupt does not end that wait, and stays set.
     *
     * @throws LockBackendException if the store could not be asked; nothing is held then
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost, also when the store
     *     says so now; the hold is then reported lost
     * @throws IllegalStateException if this lock is closed, or for a write while a scope of this thread holds the key
     *     for reading
     */
    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        validate(key, lease);
        LockHandle joined = reentry.joinWithoutWait(key, lease);
        if (joined != null) {
            return Optional.of(joined);
        }
        return Optional.ofNullable(taking.once(key, lease));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A nested acquisition waits for the store's confirmation until the wait ends (plus at most 100 ms for the
     * answer under way), and no longer than the store's call timeout; an interrupt ends that wait too.
     *
     * @throws LockBackendException if the store could not be asked; nothing is held then
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost, also when the store
     *     says so now; the hold is then reported lost
     * @throws IllegalStateException if this lock is closed, or for a write while a scope of this thread holds the key
     *     for reading
     */
    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
        validate(key, lease);
        long waitNanos = LockArguments.waitNanos(wait);
        if (waitNanos == 0) {
            return tryAcquire(key, lease);
        }
        long deadline = System.nanoTime() + waitNanos;
        LockHandle joined = reentry.join(key, lease, deadline, false);
        if (joined != null) {
            return Optional.of(joined);
        }
        return Optional.ofNullable(taking.waiting(key, lease, Math.max(0, deadline - System.nanoTime())));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A nested acquisition waits for the store's confirmation up to the store's call timeout.
     *
     * @throws LockBackendException if the store could not be asked; nothing is held then
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost, also when the store
     *     says so now; the hold is then reported lost
     * @throws IllegalStateException if this lock is closed, or for a write while a scope of this thread holds the key
     *     for reading
     */
    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        validate(key, lease);
        LockHandle joined = reentry.join(key, lease, 0, true);
        if (joined != null) {
            return joined;
        }
        LockHandle handle = taking.waiting(key, lease, StoreTaking.FOREVER);
        if (handle == null) {
            throw new IllegalStateException(
                    "an unbounded wait for lock '" + PrintableText.of(key) + "' ended without the lock");
        }
        return handle;
    }

    /**
     * {@inheritDoc}
     *
     * <p>While a thread holds the key through a view, its acquisitions of the key through this lock, through any view
     * or plain, re-enter that hold, and {@link #heldLocks()} names the thread.
     */
    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        validate(key, lease);
        return new JavaLockView(this, key, lease, side.threadOwned());
    }

    /**
     * The lease that {@link Lease#renewed()} sets and each renewal sets again.
     *
     * @return the watchdog lease
     */
    public Duration watchdogLease() {
        return settings.watchdogLease();
    }

    /**
     * How often a renewed lease is renewed.
     *
     * @return the renew interval
     */
    public Duration renewInterval() {
        return settings.renewInterval();
    }

    /**
     * How long {@link #close()} waits for held keys to be released.
     *
     * @return the shutdown grace period
     */
    public Duration shutdownGracePeriod() {
        return settings.shutdownGracePeriod();
    }

    /**
     * Refuses new acquisitions, waits up to the shutdown grace period for the held keys to be released, reports the
     * holds still open lost ({@link LockLostException.Reason#CLIENT_CLOSED}; their keys run out with their leases), and
     * closes the store. The {@linkplain Kind#SEMAPHORE semaphores} it handed out, its {@linkplain Kind#READ read side},
     * its {@linkplain Kind#FAIR fair lock}, where it has one of its own, and its {@linkplain Kind#PATH trees' path
     * locks} are closed first, each in the same way.
     * Calling it again does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (semaphores != null) {
                semaphores.close();
            }
            if (readers != null) {
                readers.close();
            }
            if (fair != null) {
                fair.close();
            }
            if (trees != null) {
                trees.close();
            }
            int abandoned = side.holds().close(settings.shutdownGracePeriod().toNanos());
            if (abandoned > 0) {
                log.warn(
                        "{} distlock lock(s) were still held when the shutdown grace period of {} ended; they are"
                                + " reported lost and expire with their leases",
                        abandoned,
                        settings.shutdownGracePeriod());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            store.close();
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws LockBackendException if the store could not be asked
     */
    @Override
    public KeyState keyState(String key) {
        validateKey(key);
        return super.keyState(key);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The store answers one read that changes nothing; a store has no release subscription, so the state's
     * subscription is {@link BackendState.Subscription#NONE} (or {@code CLOSED} once this lock is closed).
     */
    @Override
    public BackendState checkBackend() {
        return super.checkBackend();
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@link Kind#FAIR} is this lock itself where the store serves waiters in the order they arrived ({@link
     * LeaseStore#servesWaitersInArrivalOrder()}), as ZooKeeper's queue does, or else a lock over the store's queued
     * acquisitions where it has them ({@link LeaseStore#offersFairQueue()}), which holds the same keys as this lock
     * and re-enters only its own scopes; {@link Kind#SEMAPHORE} is offered where
     * the store hands out permits ({@link LeaseStore#offersPermits()}), and {@link Kind#READ} where it shares keys
     * between readers ({@link LeaseStore#offersReaders()}), whose writer is this lock; {@link Kind#PATH} where it locks the
     * paths of trees ({@link LeaseStore#offersPaths()}); there is no other kind.
     */
    @Override
    public <V> Optional<V> kind(Kind<V> kind) {
        return kinds.find(kind);
    }

    @Override
    public String toString() {
        return "StoreLock[" + store.describe() + "]";
    }

    private void validate(String key, Lease lease) {
        if (closed.get()) {
            throw closedLock(key);
        }
        validateKey(key);
        LockArguments.validateLease(lease);
    }

    private void validateKey(String key) {
        if (lockKind != LockKind.PATH) {
            // A tree's keys are canonical paths, checked by its store; "" is the whole tree.
            LockArguments.validateKey(key);
        }
        store.validateKey(key);
    }

    /** Whether a scope or view of the current thread holds the key through this lock; throws if that hold was lost. */
    boolean heldInScope(String key) {
        return side.heldInScope(key) != null;
    }

    /** Whether no hold of this lock is live, so that a tree's lock can be let go. */
    boolean holdsNothing() {
        return side.holds().count() == 0;
    }

    private IllegalStateException closedLock(String key) {
        return StoreTaking.closedLock(key, this);
    }
}
