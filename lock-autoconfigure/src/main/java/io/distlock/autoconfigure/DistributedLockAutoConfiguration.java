package io.distlock.autoconfigure;

import io.distlock.Lock;
import io.distlock.annotation.DistributedLockAdvisor;
import io.distlock.annotation.DistributedLockBeanChecker;
import io.distlock.annotation.DistributedLockInterceptor;
import io.distlock.annotation.LockDefaults;
import io.distlock.annotation.LockedMethods;
import io.distlock.redis.RedisLock;
import io.distlock.redis.ReleaseSubscription;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * Auto-configuration of distlock: the {@link Lock} bean ({@link RedisLock}) on the application's Redis connection,
 * the one shared {@link ReleaseSubscription}, and the advisor behind {@code @DistributedLock}. Every bean backs off
 * when the application defines its own; {@code distlock.enabled=false} turns all of it off.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
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
            RedisConnectionFactory connectionFactory,
            ReleaseSubscription releaseSubscription,
            DistributedLockProperties properties) {
        return RedisLock.builder(connectionFactory)
                .keyPrefix(properties.getKeyPrefix())
                .watchdogLease(properties.getWatchdog().getLease())
                .renewInterval(properties.getWatchdog().effectiveRenewInterval())
                .releaseSubscription(releaseSubscription)
                .build();
    }

    // Static factory methods and the infrastructure role, like Spring's own transaction advisor configuration: the
    // checker post-processes every bean, this configuration included, and must not need it while it is created.
    @Configuration(proxyBeanMethods = false)
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static class AnnotationConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static LockedMethods distlockLockedMethods(BeanFactory beanFactory, DistributedLockProperties properties) {
            return new LockedMethods(
                    beanFactory,
                    new LockDefaults(
                            properties.getDefaultWait(), properties.getDefaultLease(), properties.getOnLost()));
        }

        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static DistributedLockAdvisor distlockAdvisor(
                ObjectProvider<Lock> lock, ObjectProvider<LockedMethods> lockedMethods, Environment environment) {
            // Advisors are created while post-processors are still being set up; everything else is resolved lazily
            // and the order is read straight from the environment, so that no ordinary bean is created that early.
            DistributedLockInterceptor interceptor = new DistributedLockInterceptor(
                    SingletonSupplier.of(lock::getObject), SingletonSupplier.of(lockedMethods::getObject));
            int order = Binder.get(environment)
                    .bind("distlock.aspect.order", Integer.class)
                    .orElse(new DistributedLockProperties.Aspect().getOrder());
            return new DistributedLockAdvisor(interceptor, order);
        }

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static DistributedLockBeanChecker distlockBeanChecker(
                ObjectProvider<LockedMethods> lockedMethods, ObjectProvider<DistributedLockAdvisor> advisor) {
            return new DistributedLockBeanChecker(lockedMethods, advisor);
        }
    }
}
