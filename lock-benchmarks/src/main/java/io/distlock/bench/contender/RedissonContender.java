package io.distlock.bench.contender;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} (or its fair lock, or the read and write locks of its {@code RReadWriteLock}) with Redisson's
 * default settings, waiting and leasing through {@code tryLock}. On a cluster
 * it connects with {@code useClusterServers()}, every node given as a seed, as Redisson's users configure it.
 */
final class RedissonContender implements Contender {

    /** Shared with the asynchronous contenders, whose keys are Redisson's as well. */
    static final String PREFIX = "bench-redisson:";

    /** Which of Redisson's locks this contender takes. */
    enum Kind {
        PLAIN,
        FAIR,
        READ_WRITE
    }

    private final RedissonClient client;
    private final Kind kind;

    RedissonContender(RedisNodes redis, Kind kind) {
        this.kind = kind;
        this.client = connect(redis);
    }

    /** A client with Redisson's default settings, in cluster mode on a cluster. */
    static RedissonClient connect(RedisNodes redis) {
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
        return Redisson.create(config);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        return acquire(
                switch (kind) {
                    case PLAIN -> client.getLock(PREFIX + key);
                    case FAIR -> client.getFairLock(PREFIX + key);
                    case READ_WRITE -> client.getReadWriteLock(PREFIX + key).writeLock();
                },
                lease,
                wait);
    }

    @Override
    public @Nullable Release tryAcquireRead(String key, Duration lease, Duration wait) throws InterruptedException {
        if (kind != Kind.READ_WRITE) {
            return tryAcquire(key, lease, wait);
        }
        return acquire(client.getReadWriteLock(PREFIX + key).readLock(), lease, wait);
    }

    private static @Nullable Release acquire(RLock lock, Duration lease, Duration wait) throws InterruptedException {
        return lock.tryLock(wait.toMillis(), lease.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
