package io.distlock.redis.fuzz;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockLostException.Reason;
import io.distlock.LockNotAcquiredException;
import io.distlock.LockedCallable;
import io.distlock.LockedExecution;
import io.distlock.LockedRunnable;
import io.distlock.OnLockLost;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A deliberately broken lock, written the way the seed articles do it, so the fuzz checker can show that it catches a
 * lock that fails mutual exclusion. Taking the lock is right ({@code SET NX PX}, then {@code INCR} for a fencing
 * token); releasing is not, in one of two ways (see {@link LockKind}). It reports a lost lock honestly (by the local
 * clock, and when release finds another owner), so what the checker catches is the overlap itself. Not reentrant;
 * waiting forms poll.
 */
final class NaiveLock implements Lock {

    private static final long POLL_MILLIS = 3;

    /**
     * The longest pause between the GET and the DEL of the non-atomic release, as a GC pause or a descheduled thread
     * makes. The race is real without any pause, but happens only a few times in a short run (measured: 2 to 10 in 8 s
     * on two cores); beside a full parallel build (load average 18) a fixed pause of 1 ms left it uncaught in 28 s of
     * rounds. So the pause comes at the worst moment, as an adversarial scheduler would place it: a release whose lease
     * ends within this long waits until the key expired and another holder took it (or this long has passed), and only
     * then deletes it. The control's sections that end just before their lease ({@code FIXED_TO_THE_END_LOADED}) give
     * it releases that still find their own key on a loaded machine.
     */
    private static final long WORST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private static final long PAUSE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final StringRedisTemplate redis;
    private final String prefix;
    private final boolean compareBeforeDelete;
    private final Duration watchdogLease;

    /**
     * @param watchdogLease the lease of a hold with an auto-renewed lease, which this lock never renews
     */
    NaiveLock(StringRedisTemplate redis, String prefix, LockKind kind, Duration watchdogLease) {
        if (kind == LockKind.DISTLOCK) {
            throw new IllegalArgumentException("the naive lock is one of the broken kinds, not " + kind);
        }
        this.redis = redis;
        this.prefix = prefix;
        this.compareBeforeDelete = kind == LockKind.NON_ATOMIC_RELEASE;
        this.watchdogLease = watchdogLease;
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key) {
        return tryAcquire(key, Lease.renewed());
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        String lockKey = RedisFuzzLocks.redisKey(prefix, key);
        String token = UUID.randomUUID().toString();
        long leaseMillis = leaseMillis(lease);
        long sentNanos = System.nanoTime();
        if (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(lockKey, token, Duration.ofMillis(leaseMillis)))) {
            return Optional.empty();
        }
        Long fence = redis.opsForValue().increment(lockKey + ":fence");
        return Optional.of(new NaiveLockHandle(
                this,
                key,
                token,
                fence == null ? 0 : fence,
                lease,
                sentNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis)));
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Duration wait) throws InterruptedException {
        return tryAcquire(key, Lease.renewed(), wait);
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Optional<LockHandle> handle = tryAcquire(key, lease);
            if (handle.isPresent() || System.nanoTime() - deadline >= 0) {
                return handle;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    @Override
    public LockHandle acquire(String key) throws InterruptedException {
        return acquire(key, Lease.renewed());
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        while (true) {
            Optional<LockHandle> handle = tryAcquire(key, lease);
            if (handle.isPresent()) {
                return handle.get();
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    @Override
    public <T, X extends Throwable> T callWithLock(String key, Lease lease, Duration wait, LockedCallable<T, X> work)
            throws X, InterruptedException {
        LockHandle handle = tryAcquire(key, lease, wait).orElseThrow(() -> new LockNotAcquiredException(key, wait));
        return LockedExecution.call(handle, OnLockLost.THROW, work);
    }

    @Override
    public <X extends Throwable> void runWithLock(String key, Lease lease, Duration wait, LockedRunnable<X> work)
            throws X, InterruptedException {
        callWithLock(key, lease, wait, () -> {
            work.run();
            return null;
        });
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        throw new UnsupportedOperationException("the fuzz workers do not use the java.util.concurrent view");
    }

    /** The broken part. */
    void release(NaiveLockHandle handle) {
        String lockKey = RedisFuzzLocks.redisKey(prefix, handle.key());
        if (compareBeforeDelete) {
            String holder = redis.opsForValue().get(lockKey);
            if (!handle.ownerToken().equals(holder)) {
                throw handle.lost(holder == null ? Reason.KEY_GONE : Reason.OWNED_BY_OTHER);
            }
            pauseAtTheWorstMoment(lockKey, handle);
            redis.delete(lockKey);
        } else {
            redis.delete(lockKey);
            if (handle.isLost()) {
                throw handle.lost(Reason.LEASE_EXPIRED);
            }
        }
    }

    /** Waits, for a lease about to end, until another holder took the key, for at most {@link #WORST_PAUSE_NANOS}. */
    private void pauseAtTheWorstMoment(String lockKey, NaiveLockHandle handle) {
        long start = System.nanoTime();
        if (handle.expiresByNanos() - start > WORST_PAUSE_NANOS) {
            return;
        }
        while (System.nanoTime() - start < WORST_PAUSE_NANOS) {
            String holder = redis.opsForValue().get(lockKey);
            if (holder != null && !holder.equals(handle.ownerToken())) {
                return;
            }
            LockSupport.parkNanos(PAUSE_POLL_NANOS);
        }
    }

    boolean isHeld(NaiveLockHandle handle) {
        return handle.ownerToken().equals(redis.opsForValue().get(RedisFuzzLocks.redisKey(prefix, handle.key())));
    }

    Duration remainingLease(NaiveLockHandle handle) {
        Long millis = redis.getExpire(RedisFuzzLocks.redisKey(prefix, handle.key()), TimeUnit.MILLISECONDS);
        return isHeld(handle) && millis != null && millis > 0 ? Duration.ofMillis(millis) : Duration.ZERO;
    }

    /** A renewed lease is not renewed by this lock: it is simply the watchdog lease. */
    private long leaseMillis(Lease lease) {
        return lease.isRenewed() ? watchdogLease.toMillis() : lease.duration().toMillis();
    }

    @Override
    public String toString() {
        return "NaiveLock[" + (compareBeforeDelete ? "GET, compare, DEL" : "DEL without compare") + "]";
    }
}
