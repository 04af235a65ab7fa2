package io.distlock.autoconfigure.memory;

import io.distlock.Lock;
import io.distlock.autoconfigure.ConditionalOnLockBackend;
import io.distlock.autoconfigure.DistributedLockProperties;
import io.distlock.autoconfigure.StoreLocks;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.monitor.LockObserver;
import io.distlock.store.StoreLock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The {@link Lock} bean in this JVM's memory, when {@code distlock.backend=in-memory}: a {@link StoreLock} over the
 * application's {@link InMemoryLeaseStore} bean, or over a store of its own. It keeps every promise of {@code Lock}
 * within the process and excludes nothing across processes, which start-up says in the log, as a warning when the
 * application serves requests ({@link InMemoryLockWarning}). An application's own {@code Lock} bean turns both off.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockBackend("in-memory")
@ConditionalOnMissingBean(Lock.class)
class InMemoryLockConfiguration {

    @Bean
    StoreLock distlockLock(
            ObjectProvider<InMemoryLeaseStore> stores,
            DistributedLockProperties properties,
            ObjectProvider<LockObserver> observers) {
        return StoreLocks.build(stores.getIfAvailable(InMemoryLeaseStore::new), properties, observers);
    }

    @Bean
    static InMemoryLockWarning distlockInMemoryLockWarning(Environment environment) {
        return new InMemoryLockWarning(environment);
    }
}
