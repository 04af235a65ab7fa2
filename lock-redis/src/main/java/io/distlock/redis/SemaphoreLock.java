package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.internal.engine.HoldHandle;
import io.distlock.internal.engine.JavaLockView;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.Hold;
import io.distlock.redis.internal.engine.LeaseAsked;
import io.distlock.redis.internal.engine.LockKit;
import io.distlock.redis.internal.engine.SignalledWait;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.semaphore.SemaphoreScripts;
import io.distlock.redis.internal.waiting.ReleaseSignals;
import io.distlock.redis.internal.waiting.Waits;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * A semaphore of a {@link RedisLock}'s keys ({@link io.distlock.Kind#SEMAPHORE}): up to {@link #permits()} owners hold
 * a key at once, each with a permit of its own. Get it from {@code Kind.SEMAPHORE.of(lock).permits(n)}.
 *
 * <ul>
 *   <li><b>Each permit is a hold</b> with its own lease, counted by Redis: renewal, {@link LockHandle#isLost()}, {@link
 *       LockHandle#onLost} and {@link io.distlock.LockLostException} on release work as for the exclusive lock, and
 *       every permit gets its own fencing token, rising with every permit of the key. A holder that dies frees its
 *       permit when its lease ends, without help.
 *   <li><b>Apart from the lock.</b> A key's permits are kept beside its lock key ({@code {prefix+key}:permits}), in the
 *       same cluster slot, so the exclusive lock of the same name is another lock.
 *   <li><b>The count is the caller's.</b> A permit is granted while fewer than this semaphore's count of permits of the
 *       key are live, whatever count they were taken with.
 *   <li><b>Re-entering.</b> Inside a scope that holds a permit of the key through this semaphore, an acquisition of
 *       the key through it re-enters that permit.
 * </ul>
 *
 * <p>Waiting acquisitions are woken when a permit of the key comes back, here or in another process, and try again at
 * the latest when the first permit's lease would end. They end when their wait ends, when interrupted (with {@link
 * InterruptedException}, holding nothing), or with {@link io.distlock.LockBackendException} when Redis does not
 * answer. An acquisition reads every permit of its key in one script: O(permits). Not available on a {@link Redlock}.
 */
public final class SemaphoreLock implements Lock {

    private final LockKit kit;
    private final SingleNodeCommands commands;
    private final ReleaseSignals releases;
    private final int permits;
    /** The holds this semaphore granted, so that only they are re-entered through it; forgotten once collected. */
    private final Map<Hold, Boolean> granted = Collections.synchronizedMap(new WeakHashMap<>());

    SemaphoreLock(LockKit kit, SingleNodeCommands commands, ReleaseSignals releases, int permits) {
        this.kit = kit;
        this.commands = commands;
        this.releases = releases;
        this.permits = permits;
    }

    /**
     * How many owners hold one key at once through this semaphore.
     *
     * @return the count
     */
    public int permits() {
        return permits;
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        LeaseAsked asked = kit.validate(key, lease);
        try {
            return Optional.ofNullable(kit.observer().acquisition(key, LockKind.SEMAPHORE, () -> take(key, asked, 0)));
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
        return Optional.ofNullable(
                kit.observer().acquisition(key, LockKind.SEMAPHORE, () -> take(key, asked, waitNanos)));
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        LeaseAsked asked = kit.validate(key, lease);
        LockHandle handle = kit.observer().acquisition(key, LockKind.SEMAPHORE, () -> take(key, asked, Waits.FOREVER));
        if (handle == null) {
            throw new IllegalStateException(
                    "an unbounded wait for a permit of '" + PrintableText.of(key) + "' ended without one");
        }
        return handle;
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        kit.validate(key, lease);
        return new JavaLockView(this, key, lease, kit.threadOwned());
    }

    /**
     * Takes a permit: re-enters one this thread's scope holds through this semaphore, or tries until {@code waitNanos}
     * have passed (0: once; {@link Waits#FOREVER}: no limit).
     *
     * @return the handle, or null if every permit stayed taken for the whole wait
     */
    private @Nullable LockHandle take(String key, LeaseAsked lease, long waitNanos) throws InterruptedException {
        if (waitNanos != 0 && Thread.interrupted()) {
            throw new InterruptedException("interrupted before taking a permit of '" + PrintableText.of(key) + "'");
        }
        long deadline = waitNanos == Waits.FOREVER || waitNanos == 0 ? Waits.FOREVER : System.nanoTime() + waitNanos;
        Hold scope = kit.heldInScope(key, kit.holds(), granted::containsKey);
        if (scope != null) {
            LockHandle nested = kit.joinScope(scope, lease, deadline);
            if (nested != null) {
                return nested;
            }
        }
        String permitsKey = kit.lockKey(key) + SemaphoreScripts.PERMITS_SUFFIX;
        long leaseMillis = lease.storeMillis();
        return new SignalledWait(kit, commands, releases)
                .take(
                        key,
                        permitsKey,
                        waitNanos,
                        deadline,
                        (token, willWait) ->
                                commands.acquirePermit(key, permitsKey, token, leaseMillis, willWait, permits),
                        (taken, attempt) -> {
                            LockHandle handle = kit.holds()
                                    .heldPermit(
                                            key,
                                            permitsKey,
                                            attempt.token(),
                                            taken.fencingToken(),
                                            lease,
                                            attempt.call().sentNanos());
                            if (handle instanceof HoldHandle<?> own && own.hold() instanceof Hold hold) {
                                granted.put(hold, Boolean.TRUE);
                            }
                            return handle;
                        });
    }

    @Override
    public String toString() {
        return "SemaphoreLock[" + kit + ", permits=" + permits + "]";
    }
}
