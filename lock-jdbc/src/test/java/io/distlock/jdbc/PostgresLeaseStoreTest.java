package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.LockBackendException;
import io.distlock.tck.net.TcpProxy;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * {@link LeaseStoreChecks} on a real PostgreSQL, through a connection pool as applications use one: a new session per
 * statement, a process that PostgreSQL starts for each, made the checks of many grants ten times slower than on MariaDB
 * and H2, and overrun their bounds in a full build on two cores.
 */
class PostgresLeaseStoreTest extends LeaseStoreChecks {

    /** Room for the fair checks' twelve waiters, the lock's worker threads and a caller's own open transaction. */
    private static final int POOL_SIZE = 24;

    private static TestPostgres postgres;
    private static HikariDataSource pool;

    @BeforeAll
    static void startPostgres() {
        postgres = TestPostgres.start();
        pool = postgres.pool(POOL_SIZE);
    }

    @AfterAll
    static void stopPostgres() {
        pool.close();
        postgres.close();
    }

    @Override
    DataSource dataSource() {
        return pool;
    }

    /**
     * A database that went away keeps the meaning of its error: the {@link LockBackendException}'s cause is Spring's
     * {@link DataAccessResourceFailureException}, translated from the driver's connection failure (SQLState 08001).
     */
    @Test
    void aDatabaseThatCannotBeReachedFailsWithSpringsResourceFailureAsTheCause() {
        JdbcLeaseStore store;
        try (TcpProxy proxy = TcpProxy.start("localhost", postgres.port())) {
            PGSimpleDataSource throughProxy = new PGSimpleDataSource();
            throughProxy.setServerNames(new String[] {"127.0.0.1"});
            throughProxy.setPortNumbers(new int[] {proxy.port()});
            throughProxy.setDatabaseName("postgres");
            throughProxy.setUser("postgres");
            store = JdbcLeaseStore.builder(throughProxy)
                    .createTableIfMissing(true)
                    .build();
        }

        // The proxy is closed: every new connection is refused.
        assertThatThrownBy(() -> store.begin("gone:" + key, "owner-a", Duration.ofSeconds(30))
                        .tryTake())
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("could not acquire")
                .cause()
                .isInstanceOf(DataAccessResourceFailureException.class);
    }
}
