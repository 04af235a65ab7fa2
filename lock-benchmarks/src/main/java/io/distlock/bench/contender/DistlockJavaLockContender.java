package io.distlock.bench.contender;

import io.distlock.Lease;
import io.distlock.redis.RedisLock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link RedisLock} through its {@code java.util.concurrent.locks.Lock} view ({@code asJavaLock}), the API
 * that people migrating from Spring Integration's {@code obtain(key)} or Redisson's {@code RLock} use: one view per key,
 * kept as those registries keep theirs, locked with {@code tryLock(wait)} and unlocked by the same thread.
 */
final class DistlockJavaLockContender implements Contender {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLock redisLock;
    private final Map<String, java.util.concurrent.locks.Lock> views = new ConcurrentHashMap<>();

    DistlockJavaLockContender(RedisNodes redis) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.redisLock = RedisLock.builder(connectionFactory).build();
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        java.util.concurrent.locks.Lock view =
                views.computeIfAbsent(key, k -> redisLock.asJavaLock(k, Lease.fixed(lease)));
        return view.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS) ? view::unlock : null;
    }

    @Override
    public void close() {
        redisLock.close();
        connectionFactory.destroy();
    }
}
