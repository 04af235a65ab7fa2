package io.distlock.autoconfigure;

import io.distlock.Lock;
import io.distlock.monitor.LockObserver;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import io.distlock.redis.ReleaseSubscription;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Auto-configuration of distlock's {@link Lock} bean.
 *
 * <p>By default it is a {@link RedisLock} on the application's Redis connection, with the one shared {@link
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
 * <p>The lock tells every {@link LockObserver} bean what it does, in their order; distlock's own observers come from
 * its metrics auto-configuration.
 *
 * <p>Every bean backs off when the application defines its own; {@code distlock.enabled=false} turns all of them off.
 * {@link DistributedLockAnnotationAutoConfiguration} makes sure annotated methods never run without a lock unnoticed
 * when this configuration backs off.
 */
// Redis by name, one for each Spring Boot line, since neither class exists on the other line.
@AutoConfiguration(
        after = SslAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
            "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"
        })
@ConditionalOnClass({RedisLock.class, LettuceConnectionFactory.class})
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class DistributedLockAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(RedisConnectionFactory.class)
    @Conditional(OnRedlockNodesCondition.None.class)
    static class SingleNodeConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ReleaseSubscription distlockReleaseSubscription(RedisConnectionFactory connectionFactory) {
            return new ReleaseSubscription(connectionFactory);
        }

        @Bean
        @ConditionalOnMissingBean(Lock.class)
        RedisLock distlockLock(
                ObjectProvider<StringRedisTemplate> stringRedisTemplates,
                RedisConnectionFactory connectionFactory,
                ReleaseSubscription releaseSubscription,
                DistributedLockProperties properties,
                ObjectProvider<LockObserver> observers) {
            return RedisLock.builder(LockTemplates.choose(stringRedisTemplates, connectionFactory))
                    .keyPrefix(properties.getKeyPrefix())
                    .watchdogLease(properties.getWatchdog().getLease())
                    .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                    .releaseSubscription(releaseSubscription)
                    .shutdownGracePeriod(properties.getShutdown().getGracePeriod())
                    .replicaAcknowledgements(
                            properties.getReplicaAck().getReplicas(),
                            properties.getReplicaAck().getTimeout())
                    .observer(LockObserver.of(observers.orderedStream().toList()))
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(OnRedlockNodesCondition.class)
    @ConditionalOnMissingBean(Lock.class)
    static class RedlockConfiguration {

        @Bean
        RedlockNodes distlockRedlockNodes(DistributedLockProperties properties, ObjectProvider<SslBundles> sslBundles) {
            return RedlockNodes.create(properties.getRedlock(), sslBundles.getIfAvailable());
        }

        // Closed through its lifecycle before the nodes' factories are destroyed, since it depends on them.
        @Bean
        Redlock distlockLock(
                RedlockNodes nodes, DistributedLockProperties properties, ObjectProvider<LockObserver> observers) {
            return Redlock.builder(nodes.factories())
                    .keyPrefix(properties.getKeyPrefix())
                    .watchdogLease(properties.getWatchdog().getLease())
                    .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                    .shutdownGracePeriod(properties.getShutdown().getGracePeriod())
                    .clockDriftFactor(properties.getRedlock().getClockDriftFactor())
                    .observer(LockObserver.of(observers.orderedStream().toList()))
                    .build();
        }
    }
}
