package io.distlock.autoconfigure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The {@code distlock.jdbc.*} properties: bound and checked whenever lock-jdbc is present, whichever backend the lock is
 * built on, and applied to the lock on a database.
 */
class JdbcLockPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class));

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "distlock.jdbc.table-name=locks; drop table x | distlock.jdbc.table-name",
                "distlock.jdbc.table-name=1locks | distlock.jdbc.table-name",
                "distlock.jdbc.poll-min=0ms | distlock.jdbc.poll-min",
                "distlock.jdbc.poll-max=5ms | distlock.jdbc.poll-max",
                "distlock.jdbc.poll-max=2m | distlock.jdbc.poll-max",
                "distlock.jdbc.call-timeout=50ms | distlock.jdbc.call-timeout",
                "distlock.jdbc.delete-rows-unused-for=500ms | distlock.jdbc.delete-rows-unused-for"
            })
    void invalidValuesFailStartUpNamingTheProperty(String property, String name) {
        runner.withPropertyValues(property)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining(name));
    }

    @Test
    void theLockOnADatabaseUsesThem() {
        runner.withBean(DataSource.class, JdbcLockPropertiesTest::h2)
                .withPropertyValues(
                        "distlock.jdbc.table-name=app_locks",
                        "distlock.jdbc.create-table=true",
                        "distlock.jdbc.call-timeout=3s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(JdbcLockProperties.class).getTableName())
                            .isEqualTo("app_locks");
                    assertThat(context.getBean(StoreLock.class).toString()).contains("[table=app_locks]");
                    assertThat(context.getBean(JdbcLockProperties.class).getCallTimeout())
                            .isEqualTo(Duration.ofSeconds(3));
                });
    }

    /** Tokens from the database's clock (microseconds since 1970, past 10^15) show that the clean-up is on. */
    @Test
    void deletingUnusedRowsTakesFencingTokensFromTheDatabasesClock() {
        runner.withBean(DataSource.class, JdbcLockPropertiesTest::h2)
                .withPropertyValues("distlock.jdbc.create-table=true", "distlock.jdbc.delete-rows-unused-for=1h")
                .run(context -> {
                    Lock lock = context.getBean(Lock.class);
                    try (LockHandle handle =
                            lock.acquire("rows:" + UUID.randomUUID(), Lease.fixed(Duration.ofSeconds(10)))) {
                        assertThat(handle.fencingToken()).isGreaterThan(1_000_000_000_000_000L);
                    }
                });
    }

    private static DataSource h2() {
        return new SimpleDriverDataSource(
                new org.h2.Driver(), "jdbc:h2:mem:jdbc-properties-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }
}
