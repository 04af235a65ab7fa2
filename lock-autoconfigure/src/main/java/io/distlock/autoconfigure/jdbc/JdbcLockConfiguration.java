package io.distlock.autoconfigure.jdbc;

import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.autoconfigure.ConditionalOnLockBackend;
import io.distlock.autoconfigure.DistributedLockProperties;
import io.distlock.autoconfigure.StoreLocks;
import io.distlock.autoconfigure.internal.DistributedLockStartupException;
import io.distlock.jdbc.JdbcLeaseStore;
import io.distlock.monitor.LockObserver;
import io.distlock.store.StoreLock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * The {@link Lock} bean on a table of the application's database: a {@link StoreLock} over a {@link JdbcLeaseStore} on
 * the application's {@link DataSource}. The store takes its own connections from the pool, with auto-commit, so the
 * lock is neither taken nor released by the application's transactions.
 *
 * <p>The bean is made after the database's initialization (schema scripts, Flyway, Liquibase), and start-up fails if
 * the lock table is still missing then, with a message naming the schema script and {@code
 * distlock.jdbc.create-table}. The {@code distlock.jdbc.*} properties are checked whenever lock-jdbc is present.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(JdbcLeaseStore.class)
@EnableConfigurationProperties(JdbcLockProperties.class)
@ImportRuntimeHints(JdbcSchemaHints.class)
class JdbcLockConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnLockBackend("jdbc")
    static class StoreLockConfiguration {

        @Bean
        @ConditionalOnMissingBean(Lock.class)
        @DependsOnDatabaseInitialization
        StoreLock distlockLock(
                DataSource dataSource,
                JdbcLockProperties jdbc,
                DistributedLockProperties properties,
                ObjectProvider<LockObserver> observers) {
            JdbcLeaseStore store = JdbcLeaseStore.builder(dataSource)
                    .tableName(jdbc.getTableName())
                    .pollInterval(jdbc.getPollMin(), jdbc.getPollMax())
                    .createTableIfMissing(jdbc.isCreateTable())
                    .callTimeout(jdbc.getCallTimeout())
                    .deleteRowsUnusedFor(jdbc.getDeleteRowsUnusedFor())
                    .build();
            try {
                store.ping();
            } catch (LockBackendException e) {
                throw new DistributedLockStartupException(
                        "distlock cannot use its lock table " + jdbc.getTableName() + ": " + e.getMessage() + ".",
                        "Create the table from the schema named above, set distlock.jdbc.create-table=true to create"
                                + " a missing table at start-up, or point distlock.jdbc.table-name at the table"
                                + " distlock should use.",
                        e);
            }
            return StoreLocks.build(store, properties, observers);
        }
    }
}
