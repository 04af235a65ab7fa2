package io.distlock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link io.distlock.test.contract.LockContract} on a real PostgreSQL, each client with its own connection pool. */
class PostgresLockContractTest extends JdbcLockContracts {

    private static TestPostgres postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = TestPostgres.start();
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @Override
    DataSource newDataSource() {
        HikariDataSource pool = postgres.pool(4);
        closeAfter(pool);
        return pool;
    }
}
