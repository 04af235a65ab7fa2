package io.distlock.bench.contender;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;
import org.springframework.integration.support.locks.DistributedLock;

/** Spring Integration's {@link RedisLockRegistry} in one of its two waiting modes, otherwise with its defaults. */
final class SpringIntegrationContender implements Contender {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLockRegistry registry;

    SpringIntegrationContender(RedisNodes redis, RedisLockType type, Duration defaultLease) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.registry = new RedisLockRegistry(
                connectionFactory, "bench-si-" + type.name().toLowerCase(java.util.Locale.ROOT), defaultLease);
        registry.setRedisLockType(type);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        DistributedLock lock = registry.obtain(key);
        return lock.tryLock(wait, lease) ? lock::unlock : null;
    }

    @Override
    public void close() {
        registry.destroy();
        LettuceFactories.destroy(connectionFactory);
    }
}
