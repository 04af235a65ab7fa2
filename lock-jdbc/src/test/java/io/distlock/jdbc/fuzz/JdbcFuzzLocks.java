package io.distlock.jdbc.fuzz;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.jdbc.JdbcLeaseStore;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLock;
import io.distlock.tck.fuzz.FuzzLock;
import io.distlock.tck.fuzz.FuzzLockFactory;
import io.distlock.tck.fuzz.FuzzTarget;
import io.distlock.tck.fuzz.LockUnderTest;
import java.time.Duration;

/**
 * Builds a fuzz worker's {@link StoreLock} on the PostgreSQL at a JDBC URL, through a connection pool as applications
 * use one, and the checker's {@link JdbcLockView} on a pool of its own, so that waiting holders never delay a read.
 */
public final class JdbcFuzzLocks implements FuzzLockFactory {

    /** Room for every worker thread, their renewals and their releases from other threads. */
    private static final int LOCK_POOL_SIZE = 16;

    private static final int READ_POOL_SIZE = 4;

    /** The JDBC URL of the embedded PostgreSQL on {@code port}, which the workers take as their store's address. */
    static String url(int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    }

    /**
     * On the run's JDBC URL ({@link FuzzTarget#address()}): StoreLock, for the control a short-lease one, its fair
     * lock, a semaphore of StoreLock, StoreLock with its read lock, or the path lock of one tree.
     */
    @Override
    public LockUnderTest open(FuzzTarget target) {
        HikariDataSource pool = pool(target.address(), "distlock-fuzz-lock", LOCK_POOL_SIZE);
        HikariDataSource reads = pool(target.address(), "distlock-fuzz-checker", READ_POOL_SIZE);
        LeaseStore jdbc =
                JdbcLeaseStore.builder(pool).createTableIfMissing(true).build();
        StoreLock lock = StoreLock.builder(target.leaseStore(jdbc))
                .watchdogLease(target.watchdogLease())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        String variant = target.variant();
        String tree = target.treeName();
        Lock driven = variant.equals(FuzzLock.STORE_FAIR)
                ? Kind.FAIR.of(lock)
                : variant.equals(FuzzLock.STORE_PATH) ? Kind.PATH.of(lock).tree(tree) : lock;
        LockUnderTest.Builder builder = LockUnderTest.builder(driven, new JdbcLockView(reads));
        if (target.permits() > 0) {
            builder.readers(Kind.SEMAPHORE.of(lock).permits(target.permits()))
                    .lockKeys((key, permit) -> permit ? JdbcLockView.PERMITS + key : key);
        } else if (variant.equals(FuzzLock.STORE_READ_WRITE)) {
            builder.readers(Kind.READ.of(lock)).lockKeys((key, reading) -> JdbcLockView.READS + key);
        } else if (variant.equals(FuzzLock.STORE_PATH)) {
            builder.lockKeys((path, reading) -> JdbcLockView.pathHolderRow(tree, path));
        }
        return builder.onClose(() -> {
                    lock.close();
                    reads.close();
                    pool.close();
                })
                .build();
    }

    private static HikariDataSource pool(String url, String name, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setPoolName(name);
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
    }
}
