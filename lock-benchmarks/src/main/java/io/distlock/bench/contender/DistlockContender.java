package io.distlock.bench.contender;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.redis.RedisLock;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** distlock's {@link RedisLock} with default settings and fixed leases, the way the peers are given theirs. */
final class DistlockContender implements Contender {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLock lock;

    DistlockContender(RedisNodes redis) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.lock = RedisLock.builder(connectionFactory).build();
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        Optional<LockHandle> handle = lock.tryAcquire(key, Lease.fixed(lease), wait);
        return handle.isPresent() ? handle.get()::release : null;
    }

    @Override
    public void close() {
        lock.close();
        connectionFactory.destroy();
    }
}
