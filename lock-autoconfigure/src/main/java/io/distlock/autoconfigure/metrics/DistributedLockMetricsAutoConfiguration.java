package io.distlock.autoconfigure.metrics;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.autoconfigure.DistributedLockProperties;
import io.distlock.monitor.InspectableLock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of distlock's Micrometer meters and observations.
 *
 * <p>With a {@link MeterRegistry} bean and {@code distlock.metrics.enabled} (the default), a {@link
 * MicrometerLockObserver} records acquisitions, holds, losses, renewals and handovers, and a {@link LockGaugesBinder}
 * adds gauges of held locks and waiting threads. With an {@link ObservationRegistry} bean and {@code
 * distlock.observations.enabled} (the default), an {@link ObservationLockObserver} observes acquisitions and held
 * regions. Both tag by the {@link LockKeyGroups} bean, by default {@link LockKeyGroups#byPrefix()}, keeping at most
 * {@code distlock.metrics.max-groups} distinct groups. Without Micrometer nothing here is configured, and the lock works
 * as before.
 *
 * <p>The observers are {@link io.distlock.monitor.LockObserver} beans, which {@link DistributedLockAutoConfiguration}
 * hands to the lock; each bean backs off when the application defines its own of the type.
 */
// Micrometer's registries by name, one for each Spring Boot line, since neither line has the other's classes.
@AutoConfiguration(
        after = DistributedLockAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple"
                    + ".SimpleMetricsExportAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"
        })
// micrometer-core depends on micrometer-observation, so either artifact brings this class.
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class DistributedLockMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockKeyGroups distlockKeyGroups(DistributedLockProperties properties) {
        return LockKeyGroups.byPrefix(properties.getMetrics().getKeyGroupPrefixes());
    }

    @Bean
    LimitedKeyGroups distlockLimitedKeyGroups(LockKeyGroups groups, DistributedLockProperties properties) {
        return new LimitedKeyGroups(groups, properties.getMetrics().getMaxGroups());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnBooleanProperty(name = "distlock.metrics.enabled", matchIfMissing = true)
    static class MetricsConfiguration {

        /** Records the acquisition and hold timers itself only where no observation of distlock's makes them. */
        @Bean
        @ConditionalOnMissingBean
        MicrometerLockObserver distlockMetricsObserver(
                MeterRegistry registry,
                LimitedKeyGroups groups,
                DistributedLockProperties properties,
                ObjectProvider<ObservationRegistry> observations) {
            ObservationRegistry observing = observations.getIfUnique();
            boolean observed = properties.getObservations().isEnabled() && observing != null && !observing.isNoop();
            return new MicrometerLockObserver(registry, groups::groupOf, !observed);
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(InspectableLock.class)
        LockGaugesBinder distlockGauges(InspectableLock lock) {
            return new LockGaugesBinder(lock);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObservationRegistry.class)
    @ConditionalOnBean(ObservationRegistry.class)
    @ConditionalOnBooleanProperty(name = "distlock.observations.enabled", matchIfMissing = true)
    static class ObservationConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ObservationLockObserver distlockObservationObserver(
                ObservationRegistry registry,
                LimitedKeyGroups groups,
                ObjectProvider<LockObservationConvention> conventions) {
            return new ObservationLockObserver(
                    registry, groups::groupOf, conventions.orderedStream().toList());
        }
    }
}
