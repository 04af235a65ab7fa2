package io.distlock.bench.contender;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.jdbc.JdbcLeaseStore;
import io.distlock.store.StoreLock;
import io.distlock.zookeeper.ZooKeeperLeaseStore;
import java.time.Duration;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * distlock's {@link StoreLock} with default settings and fixed leases, like {@link DistlockContender} on Redis, over
 * one of the other backends' stores with their defaults: {@link JdbcLeaseStore} on the run's PostgreSQL or {@link
 * ZooKeeperLeaseStore} on its ZooKeeper. As a semaphore contender, every acquisition takes one of the key's permits
 * ({@code Kind.SEMAPHORE}) of the same lock; as a fair contender, it goes through the lock's fair lock ({@code
 * Kind.FAIR}); as a read-write contender, reads go through the lock's read side ({@code Kind.READ}) and writes through
 * the lock itself.
 */
final class StoreLockContender implements Contender {

    private final StoreLock storeLock;
    private final Lock lock;
    private final Lock readLock;
    private final @Nullable HikariDataSource pool;

    private StoreLockContender(StoreLock storeLock, Lock lock, Lock readLock, @Nullable HikariDataSource pool) {
        this.storeLock = storeLock;
        this.lock = lock;
        this.readLock = readLock;
        this.pool = pool;
    }

    /**
     * The lock on the database's table, which the run created, through this worker's own pool.
     *
     * @param permits 0 for the lock, else the count of its semaphore to take permits of
     */
    static StoreLockContender jdbc(BackendEndpoint database, int permits) {
        return jdbc(database, lock -> {
            Lock taking = taking(lock, permits);
            return new Lock[] {taking, taking};
        });
    }

    /** The lock on the database's table, as {@link #jdbc}, whose every acquisition goes through its fair lock. */
    static StoreLockContender jdbcFair(BackendEndpoint database) {
        return jdbc(database, lock -> new Lock[] {lock.fair(), lock.fair()});
    }

    /** The lock on the database's table, as {@link #jdbc}, whose reads take its read side. */
    static StoreLockContender jdbcReadWrite(BackendEndpoint database) {
        return jdbc(database, lock -> new Lock[] {lock, lock.reading()});
    }

    /** @param sides the lock that writes and the one that reads, of the store's lock */
    private static StoreLockContender jdbc(BackendEndpoint database, Function<StoreLock, Lock[]> sides) {
        HikariDataSource pool = JdbcPools.open(database, "bench-distlock-jdbc");
        try {
            StoreLock lock =
                    StoreLock.builder(JdbcLeaseStore.builder(pool).build()).build();
            Lock[] taking = sides.apply(lock);
            return new StoreLockContender(lock, taking[0], taking[1], pool);
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
        StoreLock lock = zooKeeperLock(ensemble);
        Lock taking = taking(lock, permits);
        return new StoreLockContender(lock, taking, taking, null);
    }

    /** The lock on the ensemble, as {@link #zooKeeper}, whose reads take its read side. */
    static StoreLockContender zooKeeperReadWrite(BackendEndpoint ensemble) {
        StoreLock lock = zooKeeperLock(ensemble);
        return new StoreLockContender(lock, lock, lock.reading(), null);
    }

    private static StoreLock zooKeeperLock(BackendEndpoint ensemble) {
        return StoreLock.builder(ZooKeeperLeaseStore.builder(ensemble.address()).build())
                .build();
    }

    private static Lock taking(StoreLock lock, int permits) {
        return permits == 0 ? lock : Kind.SEMAPHORE.of(lock).permits(permits);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        return LockCalls.tryAcquire(lock, key, lease, wait);
    }

    @Override
    public @Nullable Release tryAcquireRead(String key, Duration lease, Duration wait) throws InterruptedException {
        return LockCalls.tryAcquire(readLock, key, lease, wait);
    }

    @Override
    public void close() {
        storeLock.close();
        if (pool != null) {
            pool.close();
        }
    }
}
