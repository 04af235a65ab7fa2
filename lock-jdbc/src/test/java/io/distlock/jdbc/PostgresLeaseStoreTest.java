package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockBackendException;
import io.distlock.tck.net.TcpProxy;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.dao.DataAccessResourceFailureException;

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
