package io.distlock.autoconfigure;

import io.distlock.Lock;
import io.distlock.monitor.LockObserver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of distlock's {@link Lock} bean: the entry point of every backend's configuration, whose name an
 * application can exclude, order its own auto-configuration after, or list in a test's auto-configurations.
 *
 * <p>The lock is built on one backend (a {@link LockBackendCandidate}): the one that {@code distlock.backend} names, or else the
 * only one present. When several are present and none is named, or the named one is missing, or the name is unknown,
 * start-up fails before any bean is created with a message that lists the choices ({@code LockBackendCheck}).
 *
 * <p>Each backend's package describes itself to that choice with a {@link LockBackendCandidate}, listed in {@code
 * META-INF/spring.factories}, and has the configuration that builds the lock, which this class imports through its
 * candidate: Redis in {@code io.distlock.autoconfigure.redis} (a {@code RedisLock} on the application's Redis
 * connection, or a {@code Redlock} over {@code distlock.redlock.nodes}), a database in {@code
 * io.distlock.autoconfigure.jdbc} and ZooKeeper in {@code io.distlock.autoconfigure.zookeeper} (a {@code StoreLock}
 * over the module's {@code LeaseStore}). Each switches itself off when its module is not on the class path.
 *
 * <p>The lock tells every {@link LockObserver} bean what it does, in their order; distlock's own observers come from
 * its metrics auto-configuration.
 *
 * <p>Every bean backs off when the application defines its own; {@code distlock.enabled=false} turns all of them off.
 * {@link DistributedLockAnnotationAutoConfiguration} makes sure annotated methods never run without a lock unnoticed
 * when this configuration backs off.
 */
// The connections' auto-configurations by name, one for each Spring Boot line, since neither class exists on the other.
// The backends' configurations are imported, so their conditions on the connection beans are evaluated here: this is
// the one place in the neutral package that names the connections' auto-configurations, as an import cannot carry an
// order of its own.
@AutoConfiguration(
        after = SslAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
            "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
            "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
        })
@ConditionalOnClass(Lock.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import(LockBackendConfigurations.class)
public final class DistributedLockAutoConfiguration {

    // Static, since it runs before the beans of this configuration exist.
    @Bean
    static LockBackendCheck distlockBackendCheck(Environment environment) {
        return new LockBackendCheck(environment);
    }
}
