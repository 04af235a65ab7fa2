package io.distlock.bench.contender;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.redis.RedisLock;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link RedisLock} (or its {@linkplain RedisLock#fair() fair lock}) with default settings and fixed leases,
 * the way the peers are given theirs.
 */
final class DistlockContender implements Contender {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLock redisLock;
    private final Lock lock;

    DistlockContender(RedisNodes redis, boolean fair) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.redisLock = RedisLock.builder(connectionFactory).build();
        this.lock = fair ? redisLock.fair() : redisLock;
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        Optional<LockHandle> handle = lock.tryAcquire(key, Lease.fixed(lease), wait);
        return handle.isPresent() ? handle.get()::release : null;
    }

    @Override
    public void close() {
        redisLock.close();
        connectionFactory.destroy();
    }
}
