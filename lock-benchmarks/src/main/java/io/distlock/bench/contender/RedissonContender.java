package io.distlock.bench.contender;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} (or its fair lock) with Redisson's default settings, waiting and leasing through {@code tryLock}. On a cluster
 * it connects with {@code useClusterServers()}, every node given as a seed, as Redisson's users configure it.
 */
final class RedissonContender implements Contender {

    private static final String PREFIX = "bench-redisson:";

    private final RedissonClient client;
    private final boolean fair;

    RedissonContender(RedisNodes redis, boolean fair) {
        this.fair = fair;
        Config config = new Config();
        if (redis.isCluster()) {
            config.useClusterServers()
                    .addNodeAddress(
                            redis.nodes().stream().map(RedisEndpoint::address).toArray(String[]::new));
        } else {
            config.useSingleServer().setAddress(redis.nodes().get(0).address());
        }
        if (redis.password() != null) {
            config.setPassword(redis.password());
        }
        this.client = Redisson.create(config);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        RLock lock = fair ? client.getFairLock(PREFIX + key) : client.getLock(PREFIX + key);
        return lock.tryLock(wait.toMillis(), lease.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
