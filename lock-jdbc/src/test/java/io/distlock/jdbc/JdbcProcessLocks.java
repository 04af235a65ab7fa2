package io.distlock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.store.StoreLock;
import io.distlock.tck.process.OpenedLock;
import io.distlock.tck.process.ProcessLockFactory;
import java.time.Duration;

/**
 * Builds a {@link StoreLock} over {@link JdbcLeaseStore} on the database at a JDBC URL, through a small connection pool
 * as applications use one, for the process contract. The lock table must exist: a test creates it once, as children
 * that all create a missing table at once may collide in PostgreSQL's catalog.
 */
public final class JdbcProcessLocks implements ProcessLockFactory {

    /** Room for a holder or a counter, its renewals and the releases. */
    private static final int POOL_SIZE = 4;

    /** On the database at {@code address}, a JDBC URL with its user, as {@link #url(int)} gives it. */
    @Override
    public OpenedLock open(String address, Duration watchdogLease) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(address);
        config.setMaximumPoolSize(POOL_SIZE);
        config.setPoolName("distlock-process-" + ProcessHandle.current().pid());
        HikariDataSource pool = new HikariDataSource(config);
        // No grace period: a lock the test JVM left held must not hold up the end of its test.
        StoreLock lock = StoreLock.builder(JdbcLeaseStore.builder(pool).build())
                .watchdogLease(watchdogLease)
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        return new OpenedLock(lock, () -> {
            lock.close();
            pool.close();
        });
    }

    /** The JDBC URL of the postgres database of the embedded server on {@code port}, as {@link TestPostgres} runs it. */
    static String url(int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    }
}
