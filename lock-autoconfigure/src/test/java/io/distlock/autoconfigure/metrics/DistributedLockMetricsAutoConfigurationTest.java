package io.distlock.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.monitor.LockKind;
import io.distlock.test.redis.TestRedis;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class DistributedLockMetricsAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataRedisAutoConfiguration.class,
                    DistributedLockAutoConfiguration.class,
                    DistributedLockMetricsAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.port=" + TestRedis.shared().port(), "spring.data.redis.timeout=2s");

    private final ApplicationContextRunner withSpringBootsRegistries = runner.withConfiguration(AutoConfigurations.of(
            MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class,
            SimpleMetricsExportAutoConfiguration.class,
            ObservationAutoConfiguration.class));

    @Test
    void springBootsRegistriesGetTheMetersTheGaugesAndTheObservations() {
        withSpringBootsRegistries.run(context -> {
            assertThat(context).hasSingleBean(MicrometerLockObserver.class);
            assertThat(context).hasSingleBean(LockGaugesBinder.class);
            assertThat(context).hasSingleBean(ObservationLockObserver.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            String key = "configured:" + UUID.randomUUID();

            try (LockHandle held = context.getBean(Lock.class)
                    .tryAcquire(key, Lease.fixed(Duration.ofSeconds(10)))
                    .orElseThrow()) {
                assertThat(meters.get(LockGaugesBinder.HELD_LOCKS).gauge().value())
                        .isEqualTo(1.0);
            }

            // Spring Boot's observation handler makes the timers of the observations (its own "error" tag shows
            // it), and nothing else records them: one meter for each fact.
            assertThat(meters.get(MicrometerLockObserver.ACQUIRE)
                            .tags("group", "configured", "outcome", "acquired", "error", "none")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(meters.get(MicrometerLockObserver.HELD)
                            .tags("group", "configured", "outcome", "released", "error", "none")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(meters.find(MicrometerLockObserver.ACQUIRE).timers())
                    .allSatisfy(
                            timer -> assertThat(timer.getId().getTag("error")).isNotNull());
            assertThat(meters.find(MicrometerLockObserver.HELD).timers())
                    .allSatisfy(
                            timer -> assertThat(timer.getId().getTag("error")).isNotNull());
            assertThat(meters.getMeters())
                    .extracting(meter -> meter.getId().getName())
                    .noneMatch(name -> name.startsWith("distlock.lock."));
        });
    }

    @Test
    void withoutObservationsTheMeterObserverRecordsTheTimersItself() {
        withSpringBootsRegistries
                .withPropertyValues("distlock.observations.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(ObservationLockObserver.class);
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    String key = "configured:" + UUID.randomUUID();

                    context.getBean(Lock.class)
                            .tryAcquire(key, Lease.fixed(Duration.ofSeconds(10)))
                            .orElseThrow()
                            .release();

                    assertThat(meters.get(MicrometerLockObserver.ACQUIRE)
                                    .tags("group", "configured", "outcome", "acquired")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                    assertThat(meters.find(MicrometerLockObserver.ACQUIRE).timers())
                            .allSatisfy(timer ->
                                    assertThat(timer.getId().getTag("error")).isNull());
                });
    }

    @Test
    void anApplicationsConventionRenamesTheObservationsAndTheirTimers() {
        withSpringBootsRegistries
                .withBean(
                        LockObservationConvention.class,
                        () -> new DefaultLockObservationConvention(LockObservations.ACQUIRE) {
                            @Override
                            public String getName() {
                                return "orders.distlock.acquire";
                            }
                        })
                .run(context -> {
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    String key = "configured:" + UUID.randomUUID();

                    context.getBean(Lock.class)
                            .tryAcquire(key, Lease.fixed(Duration.ofSeconds(10)))
                            .orElseThrow()
                            .release();

                    assertThat(meters.get("orders.distlock.acquire")
                                    .tags("group", "configured", "outcome", "acquired")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                    assertThat(meters.find(MicrometerLockObserver.ACQUIRE).timers())
                            .isEmpty();
                    assertThat(meters.find(MicrometerLockObserver.HELD).timers())
                            .as("the hold keeps its default convention")
                            .isNotEmpty();
                });
    }

    @Test
    void withoutRegistriesThereAreNoObserversAndTheLockStillWorks() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(MicrometerLockObserver.class);
            assertThat(context).doesNotHaveBean(ObservationLockObserver.class);
            assertThat(context).doesNotHaveBean(LockGaugesBinder.class);
            assertLocks(context.getBean(Lock.class));
        });
    }

    @Test
    void withoutMicrometerNothingIsConfiguredAndTheLockStillWorks() {
        runner.withUserConfiguration(TestRegistries.class)
                .withClassLoader(new FilteredClassLoader("io.micrometer."))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(LockKeyGroups.class);
                    assertThat(context).doesNotHaveBean(MicrometerLockObserver.class);
                    assertLocks(context.getBean(Lock.class));
                });
    }

    @Test
    void metricsEnabledFalseLeavesOnlyTheObservations() {
        runner.withUserConfiguration(TestRegistries.class)
                .withPropertyValues("distlock.metrics.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(MicrometerLockObserver.class);
                    assertThat(context).doesNotHaveBean(LockGaugesBinder.class);
                    assertThat(context).hasSingleBean(ObservationLockObserver.class);
                });
    }

    @Test
    void observationsEnabledFalseLeavesOnlyTheMeters() {
        runner.withUserConfiguration(TestRegistries.class)
                .withPropertyValues("distlock.observations.enabled=false")
                .run(context -> {
                    assertThat(context).hasSingleBean(MicrometerLockObserver.class);
                    assertThat(context).hasSingleBean(LockGaugesBinder.class);
                    assertThat(context).doesNotHaveBean(ObservationLockObserver.class);
                });
    }

    @Test
    void distlockEnabledFalseTurnsTheObserversOffWithTheLock() {
        runner.withUserConfiguration(TestRegistries.class)
                .withPropertyValues("distlock.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(Lock.class);
                    assertThat(context).doesNotHaveBean(LockKeyGroups.class);
                    assertThat(context).doesNotHaveBean(MicrometerLockObserver.class);
                    assertThat(context).doesNotHaveBean(ObservationLockObserver.class);
                });
    }

    @Test
    void theApplicationsKeyGroupsTagTheMeters() {
        runner.withUserConfiguration(TestRegistries.class, OneGroup.class).run(context -> {
            assertThat(context).getBean(LockKeyGroups.class).isSameAs(context.getBean("byTenant"));
            assertLocks(context.getBean(Lock.class));

            assertThat(context.getBean(MeterRegistry.class)
                            .get(MicrometerLockObserver.ACQUIRE)
                            .tags("group", "everything")
                            .timer()
                            .count())
                    .isEqualTo(1);
        });
    }

    @Test
    void theApplicationsOwnObserverReplacesDistlocks() {
        runner.withUserConfiguration(TestRegistries.class, OwnObserver.class).run(context -> {
            assertThat(context).getBean(MicrometerLockObserver.class).isSameAs(context.getBean("ownObserver"));
        });
    }

    private static void assertLocks(Lock lock) {
        try (LockHandle held = lock.tryAcquire("configured:" + UUID.randomUUID(), Lease.fixed(Duration.ofSeconds(10)))
                .orElseThrow()) {
            assertThat(held.isHeld()).isTrue();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OneGroup {

        @Bean
        LockKeyGroups byTenant() {
            return (key, kind) -> kind == LockKind.PATH ? "trees" : "everything";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnObserver {

        @Bean
        MicrometerLockObserver ownObserver(MeterRegistry registry) {
            return new MicrometerLockObserver(registry, LockKeyGroups.byPrefix());
        }
    }
}
