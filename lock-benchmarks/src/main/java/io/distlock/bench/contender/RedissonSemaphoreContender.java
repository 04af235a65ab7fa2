package io.distlock.bench.contender;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RPermitExpirableSemaphore}, whose permits carry a lease of their own, with Redisson's default
 * settings: {@code tryAcquire(wait, lease)} answers a permit id, which {@code release} gives back. A key's count is set
 * once, by the first acquisition of each process ({@code trySetPermits} leaves a count that is set already).
 */
final class RedissonSemaphoreContender implements Contender {

    private final RedissonClient client;
    private final int permits;
    private final Set<String> counted = ConcurrentHashMap.newKeySet();

    RedissonSemaphoreContender(RedisNodes redis, int permits) {
        this.client = RedissonContender.connect(redis);
        this.permits = permits;
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        RPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(RedissonContender.PREFIX + key);
        if (counted.add(key)) {
            semaphore.trySetPermits(permits);
        }
        String permit = semaphore.tryAcquire(wait.toMillis(), lease.toMillis(), TimeUnit.MILLISECONDS);
        return permit == null ? null : () -> semaphore.release(permit);
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
