package io.distlock.autoconfigure;

import io.distlock.Lock;
import io.distlock.redis.RedisLock;
import io.distlock.redis.ReleaseSubscription;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Auto-configuration of distlock's {@link Lock} bean ({@link RedisLock}) on the application's Redis connection, and of
 * the one shared {@link ReleaseSubscription}. The lock shares the application's {@link StringRedisTemplate} only where
 * that is safe, and otherwise has one of its own that is not a bean ({@code LockTemplates} says when, and why). On any
 * client but Lettuce, such as Jedis, start-up fails with the lock builder's reason rather than falling back: distlock
 * runs its scripts through Spring Data Redis's reactive API, which only Lettuce has, so that a bounded wait can stop at
 * its deadline. Every bean backs off when the application defines its own; {@code distlock.enabled=false} turns both
 * off. {@link DistributedLockAnnotationAutoConfiguration} makes sure annotated methods never run without a lock
 * unnoticed when this configuration backs off.
 */
// By name, one for each Spring Boot line, since neither class exists on the other line.
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
            "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"
        })
@ConditionalOnClass({RedisLock.class, LettuceConnectionFactory.class})
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnBean(RedisConnectionFactory.class)
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class DistributedLockAutoConfiguration {

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
            DistributedLockProperties properties) {
        return RedisLock.builder(LockTemplates.choose(stringRedisTemplates, connectionFactory))
                .keyPrefix(properties.getKeyPrefix())
                .watchdogLease(properties.getWatchdog().getLease())
                .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                .releaseSubscription(releaseSubscription)
                .shutdownGracePeriod(properties.getShutdown().getGracePeriod())
                .replicaAcknowledgements(
                        properties.getReplicaAck().getReplicas(),
                        properties.getReplicaAck().getTimeout())
                .build();
    }
}
