package io.distlock.redis;

import io.distlock.tck.process.OpenedLock;
import io.distlock.tck.process.ProcessLockFactory;
import java.time.Duration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Builds a {@link RedisLock} on the Redis at a URI, on connections of its own, for the process contract. */
public final class RedisProcessLocks implements ProcessLockFactory {

    /** On the Redis at {@code address}, a {@code redis://} URI as {@link io.distlock.test.redis.TestRedis#uri()} gives it. */
    @Override
    public OpenedLock open(String address, Duration watchdogLease) {
        LettuceConnectionFactory connections = new LettuceConnectionFactory(
                LettuceConnectionFactory.createRedisConfiguration(address),
                LettuceClientConfiguration.builder()
                        .commandTimeout(RedisClients.COMMAND_TIMEOUT)
                        .build());
        connections.afterPropertiesSet();
        connections.start();
        // No grace period: a lock the test JVM left held must not hold up the end of its test.
        RedisLock lock = RedisLock.builder(connections)
                .watchdogLease(watchdogLease)
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        return new OpenedLock(lock, () -> {
            lock.close();
            connections.destroy();
        });
    }
}
