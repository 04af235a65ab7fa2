package io.distlock.autoconfigure;

import io.distlock.Lock;
import io.distlock.autoconfigure.jdbc.JdbcLockConfiguration;
import io.distlock.autoconfigure.redis.RedisLockConfiguration;
import io.distlock.autoconfigure.zookeeper.ZooKeeperLockConfiguration;
import io.distlock.monitor.LockObserver;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import io.distlock.redis.ReleaseSubscription;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Auto-configuration of distlock's {@link Lock} bean.
 *
 * <p>The lock is built on one backend ({@link LockBackend}): the one that {@code distlock.backend} names, or else the
 * only one present. When several are present and none is named, or the named one is missing, start-up fails with a
 * message that lists the choices.
 *
 * <p>On Redis, by default it is a {@link RedisLock} on the application's Redis connection, with the one shared {@link
 * ReleaseSubscription}. The lock shares the application's {@link StringRedisTemplate} only where that is safe, and
 * otherwise has one of its own that is not a bean ({@code LockTemplates} says when, and why). On any client but
 * Lettuce, such as Jedis, start-up fails with the lock builder's reason rather than falling back: distlock runs its
 * scripts through Spring Data Redis's reactive API, which only Lettuce has, so that a bounded wait can stop at its
 * deadline.
 *
 * <p>When {@code distlock.redlock.nodes} names at least one node, the {@link Lock} bean is a {@link Redlock} over those
 * nodes instead, on Lettuce connection factories of its own that are not beans and close with it; neither the {@link
 * RedisLock} nor the release subscription on the application's Redis is created, and that Redis is left alone.
 *
 * <p>On a database it is a {@code StoreLock} over a {@code JdbcLeaseStore} on the application's {@code DataSource}
 * ({@code JdbcLockConfiguration}); on ZooKeeper a {@code StoreLock} over a {@code ZooKeeperLeaseStore} ({@code
 * ZooKeeperLockConfiguration}).
 *
 * <p>The lock tells every {@link LockObserver} bean what it does, in their order; distlock's own observers come from
 * its metrics auto-configuration.
 *
 * <p>Every bean backs off when the application defines its own; {@code distlock.enabled=false} turns all of them off.
 * {@link DistributedLockAnnotationAutoConfiguration} makes sure annotated methods never run without a lock unnoticed
 * when this configuration backs off.
 */
// The connections' auto-configurations by name, one for each Spring Boot line, since neither class exists on the other.
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
@Import({RedisLockConfiguration.class, JdbcLockConfiguration.class, ZooKeeperLockConfiguration.class})
public final class DistributedLockAutoConfiguration {

    // Static, since it runs before the beans of this configuration exist.
    @Bean
    static LockBackendCheck distlockBackendCheck(Environment environment) {
        return new LockBackendCheck(environment);
    }
}
