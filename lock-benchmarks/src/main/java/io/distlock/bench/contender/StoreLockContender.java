package io.distlock.bench.contender;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.Lease;
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
 * ZooKeeperLeaseStore} on its ZooKeeper.
 */
final class StoreLockContender implements Contender {

    private final StoreLock lock;
    private final @Nullable HikariDataSource pool;

    private StoreLockContender(StoreLock lock, @Nullable HikariDataSource pool) {
        this.lock = lock;
        this.pool = pool;
    }

    /** The lock on the database's table, which the run created, through this worker's own pool. */
    static StoreLockContender jdbc(BackendEndpoint database) {
        HikariDataSource pool = JdbcPools.open(database, "bench-distlock-jdbc");
        try {
            return new StoreLockContender(
                    StoreLock.builder(JdbcLeaseStore.builder(pool).build()).build(), pool);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /** The lock on the ensemble, through the store's own Curator client, which closing the lock closes. */
    static StoreLockContender zooKeeper(BackendEndpoint ensemble) {
        return new StoreLockContender(
                StoreLock.builder(
                                ZooKeeperLeaseStore.builder(ensemble.address()).build())
                        .build(),
                null);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        Optional<LockHandle> handle = lock.tryAcquire(key, Lease.fixed(lease), wait);
        return handle.isPresent() ? handle.get()::release : null;
    }

    @Override
    public void close() {
        lock.close();
        if (pool != null) {
            pool.close();
        }
    }
}
