package io.distlock.jdbc;

import io.distlock.tck.process.ProcessContract;
import io.distlock.tck.process.ProcessLockFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link ProcessContract} on {@link io.distlock.store.StoreLock} over {@link JdbcLeaseStore} on a real PostgreSQL. */
class PostgresProcessContractTest extends ProcessContract {

    private static TestPostgres postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = TestPostgres.start();
        JdbcLeaseStore.builder(postgres.dataSource()).createTableIfMissing(true).build();
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @Override
    protected Class<? extends ProcessLockFactory> lockFactory() {
        return JdbcProcessLocks.class;
    }

    @Override
    protected String storeAddress() {
        return JdbcProcessLocks.url(postgres.port());
    }
}
