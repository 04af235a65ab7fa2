package io.distlock.bench.contender;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson's {@link RLock} with Redisson's default settings, waiting and leasing through {@code tryLock}. */
final class RedissonContender implements Contender {

    private static final String PREFIX = "bench-redisson:";

    private final RedissonClient client;

    RedissonContender(RedisEndpoint endpoint) {
        Config config = new Config();
        config.useSingleServer().setAddress(endpoint.address());
        if (endpoint.password() != null) {
            config.setPassword(endpoint.password());
        }
        this.client = Redisson.create(config);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        RLock lock = client.getLock(PREFIX + key);
        return lock.tryLock(wait.toMillis(), lease.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
