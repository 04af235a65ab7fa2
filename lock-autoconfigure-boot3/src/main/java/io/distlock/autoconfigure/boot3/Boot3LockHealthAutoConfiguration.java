package io.distlock.autoconfigure.boot3;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.monitor.InspectableLock;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the {@link Boot3LockHealthIndicator} on Spring Boot 3.5: when the application has Spring Boot
 * 3.5's health support, a lock that can be inspected, and {@code management.health.distlock.enabled} is not false. A
 * bean of the application's own named {@code distlockHealthIndicator} replaces it. On Spring Boot 4, whose health types
 * live elsewhere, it backs off, and lock-autoconfigure's own contributor applies.
 */
// Ordered like Spring Boot's own contributors, which need only their subject's bean defined first.
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.AbstractHealthIndicator")
public final class Boot3LockHealthAutoConfiguration {

    // Only this nested class names Spring Boot 3.5's health types, so that the outer class loads on Spring Boot 4 too.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("distlock")
    @ConditionalOnBean(InspectableLock.class)
    static class HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "distlockHealthIndicator")
        Boot3LockHealthIndicator distlockHealthIndicator(InspectableLock lock) {
            return new Boot3LockHealthIndicator(lock);
        }
    }
}
