package io.distlock.bench.contender;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The seeds' {@link SeedSpinLock} on a {@link StringRedisTemplate}, as the articles use it. */
final class SeedSpinLockContender implements Contender {

    private static final String PREFIX = "bench-seeds:";

    private final LettuceConnectionFactory connectionFactory;
    private final SeedSpinLock lock;

    SeedSpinLockContender(RedisNodes redis) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.lock = new SeedSpinLock(new StringRedisTemplate(connectionFactory));
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        String lockKey = PREFIX + key;
        String token = lock.tryAcquire(lockKey, lease, wait);
        if (token == null) {
            return null;
        }
        return () -> {
            if (!lock.release(lockKey, token)) {
                throw new IllegalStateException("seeds' lock '" + lockKey + "' was no longer held at release");
            }
        };
    }

    @Override
    public void close() {
        LettuceFactories.destroy(connectionFactory);
    }
}
