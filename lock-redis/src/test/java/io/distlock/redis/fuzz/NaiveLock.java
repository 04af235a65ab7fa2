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
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A deliberately broken lock, written the way the seed articles do it, so the fuzz checker can show that it catches a
 * lock that fails mutual exclusion. Taking the lock is right ({@code SET NX PX}, then {@code INCR} for a fencing
 * token); releasing is not, in one of three ways (see {@link LockKind}): without comparing the owner, comparing in a
 * separate command, or, with an atomic compare-and-delete otherwise, handing the key to a thread of this JVM that polls
 * for it without looking at the key's lease in Redis. It reports a lost lock honestly (by the local clock, and when
 * release finds another owner), so what the checker catches is the overlap itself. Not reentrant; waiting forms poll.
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

    private static final RedisScript<Long> COMPARE_AND_DELETE = new DefaultRedisScript<>(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", Long.class);

    private final StringRedisTemplate redis;
    private final String prefix;
    private final boolean compareBeforeDelete;
    private final @Nullable LocalHandoverPastLease localHandover;
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
        this.localHandover = kind == LockKind.LOCAL_HANDOVER_PAST_LEASE ? new LocalHandoverPastLease() : null;
        this.watchdogLease = watchdogLease;
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key) {
        return tryAcquire(key, Lease.renewed());
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        String lockKey = RedisFuzzLocks.redisKey(prefix, key);
        if (localHandover != null) {
            NaiveLockHandle handedOver = localHandover.take(key);
            if (handedOver != null) {
                // The broken part: a fresh lease by the local clock, whatever is left of the key's in Redis.
                long leaseMillis = leaseMillis(lease);
                Long fence = redis.opsForValue().increment(lockKey + ":fence");
                return Optional.of(new NaiveLockHandle(
                        this,
                        key,
                        handedOver.ownerToken(),
                        fence == null ? 0 : fence,
                        lease,
                        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis)));
            }
        }
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
        polling(key, 1);
        try {
            while (true) {
                Optional<LockHandle> handle = tryAcquire(key, lease);
                if (handle.isPresent() || System.nanoTime() - deadline >= 0) {
                    return handle;
                }
                Thread.sleep(POLL_MILLIS);
            }
        } finally {
            polling(key, -1);
        }
    }

    private void polling(String key, int change) {
        if (localHandover != null) {
            localHandover.polling(key, change);
        }
    }

    @Override
    public LockHandle acquire(String key) throws InterruptedException {
        return acquire(key, Lease.renewed());
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        polling(key, 1);
        try {
            while (true) {
                Optional<LockHandle> handle = tryAcquire(key, lease);
                if (handle.isPresent()) {
                    return handle.get();
                }
                Thread.sleep(POLL_MILLIS);
            }
        } finally {
            polling(key, -1);
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
        if (localHandover != null) {
            if (localHandover.handOver(handle)) {
                if (handle.isLost()) {
                    throw handle.lost(Reason.LEASE_EXPIRED);
                }
                return;
            }
            Long deleted = redis.execute(COMPARE_AND_DELETE, List.of(lockKey), handle.ownerToken());
            if (deleted == null || deleted == 0 || handle.isLost()) {
                throw handle.lost(deleted == null || deleted == 0 ? Reason.KEY_GONE : Reason.LEASE_EXPIRED);
            }
            return;
        }
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
        return "NaiveLock["
                + (localHandover != null
                        ? "local handover past the lease"
                        : compareBeforeDelete ? "GET, compare, DEL" : "DEL without compare")
                + "]";
    }
}
