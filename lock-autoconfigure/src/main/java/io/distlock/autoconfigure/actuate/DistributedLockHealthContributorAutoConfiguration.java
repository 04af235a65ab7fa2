package io.distlock.autoconfigure.actuate;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.monitor.InspectableLock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the {@link DistributedLockHealthIndicator} on Spring Boot 4: when the application has Spring
 * Boot's health support, a lock that can be inspected, and {@code management.health.distlock.enabled} is not false. A
 * bean of the application's own named {@code distlockHealthIndicator} replaces it. On Spring Boot 3.5, whose health
 * types live elsewhere, it backs off without a contributor.
 */
// Ordered like Spring Boot's own contributors, which need only their subject's bean defined first.
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
public final class DistributedLockHealthContributorAutoConfiguration {

    // Only this nested class names Spring Boot 4's health types, so that the outer class loads on Spring Boot 3.5 too.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("distlock")
    @ConditionalOnBean(InspectableLock.class)
    static class HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "distlockHealthIndicator")
        DistributedLockHealthIndicator distlockHealthIndicator(InspectableLock lock) {
            return new DistributedLockHealthIndicator(lock);
        }
    }
}
