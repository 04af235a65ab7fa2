package io.distlock.bench.contender;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.jdbc.JdbcLeaseStore;
import io.distlock.store.StoreLock;
import io.distlock.zookeeper.ZooKeeperLeaseStore;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * distlock's {@link StoreLock} with default settings and fixed leases, like {@link DistlockContender} on Redis, over
 * one of the other backends' stores with their defaults: {@link JdbcLeaseStore} on the run's PostgreSQL or {@link
 * ZooKeeperLeaseStore} on its ZooKeeper. As a semaphore contender, every acquisition takes one of the key's permits
 * ({@code Kind.SEMAPHORE}) of the same lock.
 */
final class StoreLockContender implements Contender {

    private final StoreLock storeLock;
    private final Lock lock;
    private final @Nullable HikariDataSource pool;

    private StoreLockContender(StoreLock storeLock, int permits, @Nullable HikariDataSource pool) {
        this.storeLock = storeLock;
        this.lock = permits == 0 ? storeLock : Kind.SEMAPHORE.of(storeLock).permits(permits);
        this.pool = pool;
    }

    /**
     * The lock on the database's table, which the run created, through this worker's own pool.
     *
     * @param permits 0 for the lock, else the count of its semaphore to take permits of
     */
    static StoreLockContender jdbc(BackendEndpoint database, int permits) {
        HikariDataSource pool = JdbcPools.open(database, "bench-distlock-jdbc");
        try {
            return new StoreLockContender(
                    StoreLock.builder(JdbcLeaseStore.builder(pool).build()).build(), permits, pool);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * The lock on the ensemble, through the store's own Curator client, which closing the lock closes.
     *
     * @param permits 0 for the lock, else the count of its semaphore to take permits of
     */
    static StoreLockContender zooKeeper(BackendEndpoint ensemble, int permits) {
        return new StoreLockContender(
                StoreLock.builder(
                                ZooKeeperLeaseStore.builder(ensemble.address()).build())
                        .build(),
                permits,
                null);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        Optional<LockHandle> handle = lock.tryAcquire(key, Lease.fixed(lease), wait);
        return handle.isPresent() ? handle.get()::release : null;
    }

    @Override
    public void close() {
        storeLock.close();
        if (pool != null) {
            pool.close();
        }
    }
}
