package io.distlock.autoconfigure.actuate;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.monitor.InspectableLock;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * Auto-configuration of the {@link DistributedLockEndpoint}, on Spring Boot 3.5 and 4 alike: when the application has
 * Actuator, a lock that can be inspected, and the {@code distlock} endpoint is accessible and exposed (Spring Boot's
 * {@code management.endpoint.distlock.access} and {@code management.endpoints.*.exposure.*}). It shows keys as {@code
 * management.endpoint.distlock.show-values} and {@code roles} say, by default to nobody. An endpoint bean of the
 * application's own replaces it.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnAvailableEndpoint(DistributedLockEndpoint.class)
@ConditionalOnBean(InspectableLock.class)
@EnableConfigurationProperties(DistributedLockEndpointProperties.class)
public final class DistributedLockEndpointAutoConfiguration {

    /** A class of Spring Security's core, whose presence means that something can check who calls the endpoint. */
    private static final String SPRING_SECURITY = "org.springframework.security.core.context.SecurityContextHolder";

    @Bean
    @ConditionalOnMissingBean
    DistributedLockEndpoint distlockEndpoint(InspectableLock lock, DistributedLockEndpointProperties properties) {
        OperatorReleasePolicy releases = new OperatorReleasePolicy(
                properties.getRelease().isEnabled(),
                ClassUtils.isPresent(SPRING_SECURITY, DistributedLockEndpointAutoConfiguration.class.getClassLoader()),
                properties.getRelease().isWithoutSecurity());
        return new DistributedLockEndpoint(lock, properties.getShowValues(), properties.getRoles(), releases);
    }
}
