package io.distlock.jdbc;

import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

/** {@link io.distlock.test.contract.LockContract} on an in-memory H2 database; each client opens its own sessions. */
class H2LockContractTest extends JdbcLockContracts {

    private static String url;

    @BeforeAll
    static void createDatabase() {
        url = TestH2.newUrl();
    }

    @Override
    DataSource newDataSource() {
        return TestH2.dataSource(url);
    }
}
