package io.distlock.autoconfigure.redis;

import io.distlock.Lock;
import io.distlock.autoconfigure.ConditionalOnLockBackend;
import io.distlock.autoconfigure.DistributedLockProperties;
import io.distlock.monitor.LockObserver;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import io.distlock.redis.ReleaseSubscription;
import io.lettuce.core.resource.ClientResources;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The {@link Lock} bean on Redis: a {@link RedisLock} on the application's Redis connection with the one shared {@link
 * ReleaseSubscription}, or a {@link Redlock} when {@code distlock.redlock.nodes} names nodes. The {@code
 * distlock.redlock.*} properties are checked whenever lock-redis is present.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({RedisLock.class, LettuceConnectionFactory.class})
@EnableConfigurationProperties({RedlockProperties.class, RedisLockProperties.class})
class RedisLockConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnLockBackend("redis")
    @ConditionalOnBean(RedisConnectionFactory.class)
    @Conditional(OnRedlockNodesCondition.None.class)
    static class SingleNodeConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ReleaseSubscription distlockReleaseSubscription(
                RedisConnectionFactory connectionFactory,
                RedisLockProperties redis,
                DistributedLockProperties properties) {
            return new ReleaseSubscription(
                    connectionFactory, RedisSettings.of(redis, properties).shardedPubSub());
        }

        @Bean
        @ConditionalOnMissingBean(Lock.class)
        RedisLock distlockLock(
                ObjectProvider<StringRedisTemplate> stringRedisTemplates,
                RedisConnectionFactory connectionFactory,
                ReleaseSubscription releaseSubscription,
                RedisLockProperties redis,
                DistributedLockProperties properties,
                ObjectProvider<LockObserver> observers) {
            RedisSettings settings = RedisSettings.of(redis, properties);
            return RedisLock.builder(LockTemplates.choose(stringRedisTemplates, connectionFactory))
                    .keyPrefix(properties.getKeyPrefix())
                    .instanceName(properties.effectiveInstanceName())
                    .watchdogLease(properties.getWatchdog().getLease())
                    .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                    .maxHold(properties.getWatchdog().getMaxHold())
                    .releaseSubscription(releaseSubscription)
                    .shutdownGracePeriod(properties.getShutdown().getGracePeriod())
                    .replicaAcknowledgements(settings.replicas(), settings.acknowledgementTimeout())
                    .deleteCountersUnusedFor(settings.deleteCountersUnusedFor())
                    .localHandoverWindow(settings.localHandoverWindow())
                    .observer(LockObserver.of(observers.orderedStream().toList()))
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnLockBackend("redis")
    @Conditional(OnRedlockNodesCondition.class)
    @ConditionalOnMissingBean(Lock.class)
    static class RedlockConfiguration {

        /** On Spring Boot's Lettuce {@link ClientResources} and with the application's customizers, where it has them. */
        @Bean
        RedlockNodes distlockRedlockNodes(
                RedlockProperties redlock,
                RedisLockProperties redis,
                DistributedLockProperties properties,
                ObjectProvider<SslBundles> sslBundles,
                ObjectProvider<ClientResources> clientResources,
                ObjectProvider<RedlockClientCustomizers> customizers) {
            redlock.checkAgainst(properties.getWatchdog().getLease(), RedisSettings.of(redis, properties));
            return RedlockNodes.create(
                    redlock,
                    sslBundles.getIfAvailable(),
                    clientResources.getIfUnique(),
                    customizers.getIfAvailable(RedlockClientCustomizers::none));
        }

        // Closed through its lifecycle before the nodes' factories are destroyed, since it depends on them.
        @Bean
        Redlock distlockLock(
                RedlockNodes nodes,
                RedlockProperties redlock,
                DistributedLockProperties properties,
                ObjectProvider<LockObserver> observers) {
            return Redlock.builder(nodes.factories())
                    .keyPrefix(properties.getKeyPrefix())
                    .instanceName(properties.effectiveInstanceName())
                    .watchdogLease(properties.getWatchdog().getLease())
                    .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                    .maxHold(properties.getWatchdog().getMaxHold())
                    .shutdownGracePeriod(properties.getShutdown().getGracePeriod())
                    .clockDriftFactor(redlock.getClockDriftFactor())
                    .observer(LockObserver.of(observers.orderedStream().toList()))
                    .build();
        }

        // Only here are Spring Boot 4's customizer types named, so that the configuration loads on Spring Boot 3.5.
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(LettuceClientConfigurationBuilderCustomizer.class)
        static class CustomizersConfiguration {

            @Bean
            RedlockClientCustomizers distlockRedlockClientCustomizers(
                    ObjectProvider<LettuceClientOptionsBuilderCustomizer> options,
                    ObjectProvider<LettuceClientConfigurationBuilderCustomizer> configuration) {
                return new RedlockClientCustomizers(
                        builder -> options.orderedStream().forEach(customizer -> customizer.customize(builder)),
                        builder -> configuration.orderedStream().forEach(customizer -> customizer.customize(builder)));
            }
        }
    }
}
