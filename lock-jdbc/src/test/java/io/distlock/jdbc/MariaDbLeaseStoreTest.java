package io.distlock.jdbc;

import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link LeaseStoreChecks} on a real MariaDB: the shipped schema-mysql.sql and the MySQL dialect's statements. */
class MariaDbLeaseStoreTest extends LeaseStoreChecks {

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
    DataSource dataSource() {
        return mariaDb.dataSource();
    }
}
