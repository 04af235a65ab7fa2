package io.distlock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link io.distlock.tck.contract.LockContract} on a real MariaDB, each client with its own connection pool. */
class MariaDbLockContractTest extends JdbcLockContracts {

    private static TestMariaDb mariaDb;

    @BeforeAll
    static void startMariaDb() {
        mariaDb = TestMariaDb.start();
    }

    @AfterAll
    static void stopMariaDb() {
        mariaDb.close();
    }

    @Override
    DataSource newDataSource() {
        HikariDataSource pool = mariaDb.pool(4);
        closeAfter(pool);
        return pool;
    }

    @Override
    String serverHost() {
        return "127.0.0.1";
    }

    @Override
    int serverPort() {
        return mariaDb.port();
    }

    @Override
    DataSource dataSourceThrough(int port, Duration timeout) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(mariaDb.dataSourceAt(port, timeout));
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(timeout.toMillis());
        config.setValidationTimeout(Math.min(timeout.toMillis(), 1000));
        config.setPoolName("distlock-test-mariadb-proxied-" + port);
        HikariDataSource pool = new HikariDataSource(config);
        closeAfter(pool);
        return pool;
    }
}
