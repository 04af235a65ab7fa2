package io.distlock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.postgresql.ds.PGSimpleDataSource;

/** {@link io.distlock.tck.contract.LockContract} on a real PostgreSQL, each client with its own connection pool. */
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

    @Override
    String serverHost() {
        return "localhost";
    }

    @Override
    int serverPort() {
        return postgres.port();
    }

    @Override
    DataSource dataSourceThrough(int port, Duration timeout) {
        PGSimpleDataSource server = new PGSimpleDataSource();
        server.setServerNames(new String[] {"127.0.0.1"});
        server.setPortNumbers(new int[] {port});
        server.setDatabaseName("postgres");
        server.setUser("postgres");
        HikariConfig config = new HikariConfig();
        config.setDataSource(server);
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(timeout.toMillis());
        config.setValidationTimeout(Math.min(timeout.toMillis(), 1000));
        config.setPoolName("distlock-test-proxied-" + port);
        HikariDataSource pool = new HikariDataSource(config);
        closeAfter(pool);
        return pool;
    }
}
