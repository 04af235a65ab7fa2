package io.distlock.bench.contender;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.redisson.api.RLock;
import org.redisson.api.RLockReactive;
import org.redisson.api.RedissonClient;
import org.redisson.api.RedissonReactiveClient;

/**
 * Redisson's {@link RLock} through its asynchronous API ({@code tryLockAsync} + {@code unlockAsync}) or its reactive
 * one ({@link RLockReactive#tryLock} + {@link RLockReactive#unlock}), on a client configured like {@link
 * RedissonContender}'s.
 *
 * <p>Redisson names a lock's owner by client and thread id, and lets an owner re-enter what it holds. An asynchronous
 * acquisition has no thread of its own, so each one gets an owner id of its own, which its release passes again: two
 * acquisitions in flight never share an owner, as two threads would not.
 */
final class RedissonAsyncContender implements AsyncContender {

    /** Which of Redisson's non-blocking APIs this contender takes the lock through. */
    enum Api {
        ASYNC,
        REACTIVE
    }

    /** Above any thread id of this JVM, so an owner id never names a real thread that might also lock. */
    private static final long FIRST_OWNER = 1L << 40;

    private final RedissonClient client;
    private final RedissonReactiveClient reactive;
    private final Api api;
    private final AtomicLong owners = new AtomicLong(FIRST_OWNER);

    RedissonAsyncContender(RedisNodes redis, Api api) {
        this.client = RedissonContender.connect(redis);
        this.reactive = client.reactive();
        this.api = api;
    }

    @Override
    public CompletionStage<@Nullable AsyncRelease> tryAcquireAsync(String key, Duration lease, Duration wait) {
        String name = RedissonContender.PREFIX + key;
        long owner = owners.incrementAndGet();
        return switch (api) {
            case ASYNC -> {
                RLock lock = client.getLock(name);
                yield lock.tryLockAsync(wait.toMillis(), lease.toMillis(), TimeUnit.MILLISECONDS, owner)
                        .<@Nullable AsyncRelease>thenApply(taken -> taken ? () -> lock.unlockAsync(owner) : null);
            }
            case REACTIVE -> {
                RLockReactive lock = reactive.getLock(name);
                yield lock.tryLock(wait.toMillis(), lease.toMillis(), TimeUnit.MILLISECONDS, owner)
                        .toFuture()
                        .<@Nullable AsyncRelease>thenApply(taken -> Boolean.TRUE.equals(taken)
                                ? () -> lock.unlock(owner).toFuture()
                                : null);
            }
        };
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
