package io.distlock.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lock;
import io.distlock.monitor.InspectableLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** When the endpoint and the health contributor are there, and when they back off. */
class DistributedLockActuatorAutoConfigurationTest {

    @Test
    void endpointAndHealthIndicatorOverTheLockBean() {
        ActuatorContexts.onSharedRedis().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(DistributedLockEndpoint.class).hasBean("distlockEndpoint");
            assertThat(context)
                    .hasSingleBean(DistributedLockHealthIndicator.class)
                    .hasBean("distlockHealthIndicator");
            assertThat(context.getBean(DistributedLockEndpoint.class)
                            .locks(SecurityContext.NONE)
                            .held())
                    .isEmpty();
            assertThat(context.getBean(DistributedLockHealthIndicator.class)
                            .health()
                            .getStatus()
                            .getCode())
                    .isEqualTo("UP");
        });
    }

    @Test
    void noEndpointWhenItsAccessIsNone() {
        ActuatorContexts.onSharedRedis()
                .withPropertyValues("management.endpoint.distlock.access=none")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(DistributedLockEndpoint.class);
                    assertThat(context).hasSingleBean(DistributedLockHealthIndicator.class);
                });
    }

    @Test
    void noEndpointWhenItIsNotExposed() {
        ActuatorContexts.onSharedRedis()
                .withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).doesNotHaveBean(DistributedLockEndpoint.class));
    }

    @Test
    void noHealthIndicatorWhenItIsDisabled() {
        ActuatorContexts.onSharedRedis()
                .withPropertyValues("management.health.distlock.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class);
                    assertThat(context).hasSingleBean(DistributedLockEndpoint.class);
                });
    }

    @Test
    void noHealthIndicatorWhenDefaultIndicatorsAreDisabled() {
        ActuatorContexts.onSharedRedis()
                .withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class));
    }

    @Test
    void neitherWhenDistlockIsDisabled() {
        ActuatorContexts.onSharedRedis()
                .withPropertyValues("distlock.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(Lock.class);
                    assertThat(context).doesNotHaveBean(DistributedLockEndpoint.class);
                    assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class);
                });
    }

    @Test
    void neitherWithoutALock() {
        ActuatorContexts.withoutRedis().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(DistributedLockEndpoint.class);
            assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class);
        });
    }

    @Test
    void noEndpointWithoutActuator() {
        ActuatorContexts.onSharedRedis()
                .withClassLoader(new FilteredClassLoader(Endpoint.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(Lock.class);
                    assertThat(context).doesNotHaveBean(DistributedLockEndpoint.class);
                });
    }

    @Test
    void noHealthIndicatorWithoutSpringBootHealth() {
        ActuatorContexts.onSharedRedis()
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class);
                    assertThat(context).hasSingleBean(DistributedLockEndpoint.class);
                });
    }

    @Test
    void applicationsOwnHealthIndicatorWins() {
        ActuatorContexts.onSharedRedis()
                .withUserConfiguration(OwnHealthIndicator.class)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class);
                    assertThat(context.getBean("distlockHealthIndicator", HealthIndicator.class)
                                    .health()
                                    .getDetails())
                            .containsEntry("own", true);
                });
    }

    @Test
    void applicationsOwnEndpointWins() {
        ActuatorContexts.onSharedRedis()
                .withUserConfiguration(OwnEndpoint.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(DistributedLockEndpoint.class);
                    assertThat(context).hasBean("ownEndpoint").doesNotHaveBean("distlockEndpoint");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnHealthIndicator {

        @Bean
        HealthIndicator distlockHealthIndicator() {
            return () -> Health.up().withDetail("own", true).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnEndpoint {

        @Bean
        DistributedLockEndpoint ownEndpoint(InspectableLock lock) {
            return new DistributedLockEndpoint(lock);
        }
    }
}
