package io.distlock.bench.contender;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.redis.RedisLock;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link RedisLock} with default settings, taken through {@link io.distlock.Lock#tryAcquireAsync}: whatever
 * implementation of the non-blocking API the lock has when the benchmark runs is what it measures, and released
 * through {@link LockHandle#releaseAsync()}, so no thread waits for Redis at either end.
 */
final class DistlockAsyncContender implements AsyncContender {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLock lock;

    DistlockAsyncContender(RedisNodes redis) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.lock = RedisLock.builder(connectionFactory).build();
    }

    @Override
    public CompletionStage<@Nullable AsyncRelease> tryAcquireAsync(String key, Duration lease, Duration wait) {
        return lock.tryAcquireAsync(key, Lease.fixed(lease), wait)
                .<@Nullable AsyncRelease>thenApply(handle ->
                        handle.<AsyncRelease>map(held -> held::releaseAsync).orElse(null));
    }

    @Override
    public void close() {
        lock.close();
        LettuceFactories.destroy(connectionFactory);
    }
}
