package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.internal.engine.JavaLockView;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.Hold;
import io.distlock.redis.internal.engine.LeaseAsked;
import io.distlock.redis.internal.engine.LockKit;
import io.distlock.redis.internal.engine.SignalledWait;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.waiting.ReleaseSignals;
import io.distlock.redis.internal.waiting.Waits;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The read side of a {@link RedisLock}'s keys: any number of readers hold a key together, while the writer is the
 * {@link RedisLock} itself (its exclusive acquisitions, plain or {@linkplain RedisLock#fair() fair}). Get it from
 * {@link RedisLock#reading()}.
 *
 * <ul>
 *   <li><b>Readers exclude writers and are excluded by them.</b> A reader is refused while a writer holds the key; a
 *       writer is refused while any reader's lease runs.
 *   <li><b>Writer preference.</b> A writer that waits for readers keeps new readers out until the current readers'
 *       leases would end, so writers never starve. {@link #aheadOfWaitingWriters()} gives readers that do not yield.
 *   <li><b>Each reader has its own lease</b>, counted by Redis: renewal, {@link LockHandle#isLost()}, {@link
 *       LockHandle#onLost} and {@link io.distlock.LockLostException} on release work as for the exclusive lock. A
 *       reader that dies frees its share when its lease ends, without help. Every reader gets its own fencing token.
 *   <li><b>Re-entering.</b> Inside a scope that holds the key for reading, a read acquisition re-enters. Inside a scope
 *       that holds it for writing, a read acquisition re-enters the write hold (a downgrade): the key stays exclusive
 *       until the last handle of that hold is released. Taking the key for writing inside a scope that holds it for
 *       reading fails at once with {@link IllegalStateException} (an upgrade could deadlock).
 * </ul>
 *
 * <p>Waiting readers are woken by the writer's release, here or in another process; they never queue with the
 * writers, and try again at the latest when the lease that kept them out ends. Waiting forms end when their wait ends,
 * when interrupted (with {@link InterruptedException}, holding nothing), or with {@link
 * io.distlock.LockBackendException} when Redis does not answer. Not available on a {@link Redlock}.
 */
public final class ReadLock implements Lock {

    private final LockKit kit;
    private final SingleNodeCommands commands;
    private final ReleaseSignals releases;
    private final boolean yieldToWriters;

    ReadLock(LockKit kit, SingleNodeCommands commands, ReleaseSignals releases, boolean yieldToWriters) {
        this.kit = kit;
        this.commands = commands;
        this.releases = releases;
        this.yieldToWriters = yieldToWriters;
    }

    /**
     * Readers that do not yield to waiting writers: they are refused only while a writer holds the key. Writers may
     * then wait as long as readers keep coming.
     *
     * @return the read lock without writer preference
     */
    public ReadLock aheadOfWaitingWriters() {
        return yieldToWriters ? new ReadLock(kit, commands, releases, false) : this;
    }

    /** Takes a reader's share of the key if no writer holds it (or, with writer preference, waits for it). */
    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        LeaseAsked asked = kit.validate(key, lease);
        try {
            return Optional.ofNullable(kit.observer().acquisition(key, LockKind.READ, () -> take(key, asked, 0)));
        } catch (InterruptedException e) {
            // A single attempt waits uninterruptibly, so this cannot happen; keep the interrupt for the caller anyway.
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
        LeaseAsked asked = kit.validate(key, lease);
        long waitNanos = Waits.nanos(wait);
        // A zero wait is one attempt: take tries once then, without validating and resolving the lease again.
        return Optional.ofNullable(kit.observer().acquisition(key, LockKind.READ, () -> take(key, asked, waitNanos)));
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        LeaseAsked asked = kit.validate(key, lease);
        LockHandle handle = kit.observer().acquisition(key, LockKind.READ, () -> take(key, asked, Waits.FOREVER));
        if (handle == null) {
            throw new IllegalStateException(
                    "an unbounded wait for lock '" + PrintableText.of(key) + "' ended without the lock");
        }
        return handle;
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        kit.validate(key, lease);
        return new JavaLockView(this, key, lease, kit.threadOwned());
    }

    /** This lock itself: it already reads. */
    @Override
    public ReadLock reading() {
        return this;
    }

    /**
     * Takes a reader's share: re-enters a read hold of this thread's scope, or tries until {@code waitNanos} have
     * passed (0: once; {@link Waits#FOREVER}: no limit).
     *
     * @return the handle, or null if a writer kept the key for the whole wait
     */
    private @Nullable LockHandle take(String key, LeaseAsked lease, long waitNanos) throws InterruptedException {
        if (waitNanos != 0 && Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + PrintableText.of(key) + "'");
        }
        long deadline = waitNanos == Waits.FOREVER || waitNanos == 0 ? Waits.FOREVER : System.nanoTime() + waitNanos;
        Hold scope = kit.heldInScope(key);
        if (scope != null) {
            // Inside a read scope this re-enters; inside a write scope the write hold, exclusive, covers reading too.
            LockHandle nested = kit.joinScope(scope, lease, deadline);
            if (nested != null) {
                return nested;
            }
        }
        String lockKey = kit.lockKey(key);
        long leaseMillis = lease.storeMillis();
        return new SignalledWait(kit, commands, releases)
                .take(
                        key,
                        lockKey,
                        waitNanos,
                        deadline,
                        (token, willWait) ->
                                commands.acquireRead(key, lockKey, token, leaseMillis, willWait, yieldToWriters),
                        (granted, attempt) -> kit.holds()
                                .heldRead(
                                        key,
                                        lockKey,
                                        attempt.token(),
                                        granted.fencingToken(),
                                        lease,
                                        attempt.call().sentNanos()));
    }

    @Override
    public String toString() {
        return "ReadLock[" + kit + (yieldToWriters ? "" : ", ahead of waiting writers") + "]";
    }
}
