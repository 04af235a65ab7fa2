package io.distlock.jdbc;

import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

/** {@link LeaseStoreChecks} on an in-memory H2 database. */
class H2LeaseStoreTest extends LeaseStoreChecks {

    private static DataSource h2;

    @BeforeAll
    static void createDatabase() {
        h2 = TestH2.newDatabase();
    }

    @Override
    DataSource dataSource() {
        return h2;
    }
}
