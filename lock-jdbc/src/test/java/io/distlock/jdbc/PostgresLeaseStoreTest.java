package io.distlock.jdbc;

import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link LeaseStoreChecks} on a real PostgreSQL. */
class PostgresLeaseStoreTest extends LeaseStoreChecks {

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
    DataSource dataSource() {
        return postgres.dataSource();
    }
}
