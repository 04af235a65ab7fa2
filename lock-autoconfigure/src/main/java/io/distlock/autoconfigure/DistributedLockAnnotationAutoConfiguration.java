package io.distlock.autoconfigure;

import io.distlock.DistributedLock;
import io.distlock.Lock;
import io.distlock.annotation.DistributedLockAdvisor;
import io.distlock.annotation.DistributedLockBeanChecker;
import io.distlock.annotation.DistributedLockInterceptor;
import io.distlock.annotation.LockDefaults;
import io.distlock.annotation.LockedMethods;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.util.function.SingletonSupplier;

/**
 * Auto-configuration of {@code @DistributedLock}: the advisor that locks annotated methods, the start-up checks of
 * every annotation, and a guard that fails start-up when annotated methods exist but no single {@link Lock} does. The
 * guard is active whatever else backs off, so annotated methods never run unlocked unnoticed; with {@code
 * distlock.enabled=false} it warns instead, naming the methods that run unlocked. With Spring's transactions on the
 * class path, each transaction manager checks the locks of the work it commits for, just before the commit.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(DistributedLock.class)
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class DistributedLockAnnotationAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static LockedMethodsGuard distlockLockedMethodsGuard(
            ConfigurableListableBeanFactory beanFactory, Environment environment) {
        boolean enabled =
                Binder.get(environment).bind("distlock.enabled", Boolean.class).orElse(true);
        return new LockedMethodsGuard(beanFactory, environment, enabled);
    }

    // Static factory methods and the infrastructure role, like Spring's own transaction advisor configuration: the
    // checker post-processes every bean, this configuration included, and must not need it while it is created.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static class AdvisorConfiguration {

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

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ConfigurableTransactionManager.class)
    @ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static class TransactionConfiguration {

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static LockCheckingTransactionManagers distlockLockCheckingTransactionManagers() {
            return new LockCheckingTransactionManagers();
        }
    }
}
