package io.distlock.bench.contender;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@link JdbcLockRegistry} on its {@link DefaultLockRepository}, with their defaults (100 ms
 * between tries, a client id of its own per worker), on the {@code INT_LOCK} table that the run created in its
 * PostgreSQL, through this worker's own pool. Outside a Spring context, it is started here as the context would start
 * it.
 */
final class JdbcLockRegistryContender implements Contender {

    private final HikariDataSource pool;
    private final DefaultLockRepository repository;
    private final JdbcLockRegistry registry;

    JdbcLockRegistryContender(BackendEndpoint database) {
        this.pool = JdbcPools.open(database, "bench-si-jdbc");
        try {
            this.repository = new DefaultLockRepository(pool);
            repository.setTransactionManager(new DataSourceTransactionManager(pool));
            repository.afterPropertiesSet();
            repository.afterSingletonsInstantiated();
            repository.start();
            this.registry = new JdbcLockRegistry(repository);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        DistributedLock lock = registry.obtain(key);
        return lock.tryLock(wait, lease) ? lock::unlock : null;
    }

    @Override
    public void close() {
        repository.stop();
        repository.close();
        pool.close();
    }
}
