package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.OnLockLost;
import io.distlock.annotation.DistributedLockAdvisor;
import io.distlock.annotation.DistributedLockBeanChecker;
import io.distlock.annotation.LockedMethods;
import io.distlock.redis.RedisLock;
import io.distlock.redis.ReleaseSubscription;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.data.redis.connection.RedisConnectionFactory;

class DistributedLockAutoConfigurationTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis();

    @Test
    void defaultsGiveARedisLockTheSubscriptionAndTheAnnotationSupport() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(Lock.class);
            assertThat(context).hasSingleBean(ReleaseSubscription.class);
            assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
            assertThat(context).hasSingleBean(DistributedLockBeanChecker.class);
            RedisLock lock = context.getBean(RedisLock.class);
            assertThat(lock.keyPrefix()).isEqualTo("distlock:");
            assertThat(lock.watchdogLease()).isEqualTo(Duration.ofSeconds(30));
            assertThat(lock.renewInterval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(lock.shutdownGracePeriod()).isEqualTo(Duration.ofSeconds(10));
            assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
                    .isEqualTo(Ordered.LOWEST_PRECEDENCE - 1);
            LockedMethods methods = context.getBean(LockedMethods.class);
            assertThat(methods.defaults().waitTime()).isEqualTo(Duration.ofSeconds(5));
            assertThat(methods.defaults().lease()).isNull();
            assertThat(methods.defaults().onLost()).isEqualTo(OnLockLost.THROW);
        });
    }

    @Test
    void theLockBeanLocksInRedis() {
        runner.run(context -> {
            Lock lock = context.getBean(Lock.class);
            try (LockHandle held = lock.tryAcquire(
                            "autoconfig:" + System.nanoTime(), Lease.fixed(Duration.ofSeconds(5)))
                    .orElseThrow()) {
                assertThat(held.isHeld()).isTrue();
            }
        });
    }

    @Test
    void theLockStillWorksAfterTheContextWasPausedAndRestarted() {
        runner.run(context -> {
            ConfigurableApplicationContext application =
                    context.getSourceApplicationContext(ConfigurableApplicationContext.class);
            // What Spring's test framework does to a cached context that the next test class does not use.
            application.pause();
            application.restart();

            try (LockHandle held = context.getBean(Lock.class)
                    .tryAcquire("paused:" + System.nanoTime(), Lease.fixed(Duration.ofSeconds(5)))
                    .orElseThrow()) {
                assertThat(held.isHeld()).isTrue();
            }
        });
    }

    @Test
    void everyPropertyIsApplied() {
        runner.withPropertyValues(
                        "distlock.key-prefix=orders:",
                        "distlock.default-wait=0",
                        "distlock.default-lease=12s",
                        "distlock.on-lost=log",
                        "distlock.watchdog.lease=9s",
                        "distlock.watchdog.renew-interval=2s",
                        "distlock.aspect.order=7",
                        "distlock.shutdown.grace-period=3s")
                .run(context -> {
                    RedisLock lock = context.getBean(RedisLock.class);
                    assertThat(lock.keyPrefix()).isEqualTo("orders:");
                    assertThat(lock.watchdogLease()).isEqualTo(Duration.ofSeconds(9));
                    assertThat(lock.renewInterval()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(lock.shutdownGracePeriod()).isEqualTo(Duration.ofSeconds(3));
                    LockedMethods methods = context.getBean(LockedMethods.class);
                    assertThat(methods.defaults().waitTime()).isZero();
                    assertThat(methods.defaults().lease()).isEqualTo(Duration.ofSeconds(12));
                    assertThat(methods.defaults().onLost()).isEqualTo(OnLockLost.LOG);
                    assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
                            .isEqualTo(7);
                });
    }

    @Test
    void backsOffToTheApplicationsOwnLock() {
        runner.withUserConfiguration(OwnLockConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(Lock.class);
            assertThat(context.getBean(Lock.class)).isSameAs(context.getBean("ownLock"));
            assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
        });
    }

    @Test
    void backsOffToTheApplicationsOwnSubscription() {
        runner.withUserConfiguration(OwnSubscriptionConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ReleaseSubscription.class);
            assertThat(context.getBean(ReleaseSubscription.class)).isSameAs(context.getBean("ownSubscription"));
        });
    }

    @Test
    void disabledByProperty() {
        runner.withPropertyValues("distlock.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(Lock.class);
            assertThat(context).doesNotHaveBean(ReleaseSubscription.class);
            assertThat(context).doesNotHaveBean(DistributedLockAdvisor.class);
        });
    }

    @Test
    void absentWithoutARedisConnectionFactory() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(RedisConnectionFactory.class);
                    assertThat(context).doesNotHaveBean(Lock.class);
                });
    }

    @Test
    void invalidPropertiesFailStartupNamingTheProperty() {
        assertFailsNaming("distlock.key-prefix= ", "distlock.key-prefix");
        assertFailsNaming("distlock.key-prefix=a{b}", "distlock.key-prefix");
        assertFailsNaming("distlock.instance-name=orders+1", "distlock.instance-name");
        assertFailsNaming("distlock.instance-name=" + "n".repeat(101), "distlock.instance-name");
        assertFailsNaming("distlock.default-wait=-1s", "distlock.default-wait");
        assertFailsNaming("distlock.default-lease=0s", "distlock.default-lease");
        assertFailsNaming("distlock.default-lease=400d", "distlock.default-lease");
        assertFailsNaming("distlock.watchdog.lease=10ms", "distlock.watchdog.lease");
        assertFailsNaming("distlock.on-lost=default", "distlock.on-lost");
        assertFailsNaming("distlock.watchdog.renew-interval=0s", "distlock.watchdog.renew-interval");
        assertFailsNaming("distlock.shutdown.grace-period=-1s", "distlock.shutdown.grace-period");
        assertFailsNaming("distlock.metrics.max-groups=0", "distlock.metrics.max-groups");
        assertFailsNaming("distlock.watchdog.max-hold=30s", "distlock.watchdog.max-hold");
    }

    @Test
    void conflictingWatchdogSettingsFailStartup() {
        runner.withPropertyValues("distlock.watchdog.lease=5s", "distlock.watchdog.renew-interval=5s")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining("distlock.watchdog.renew-interval")
                        .hasMessageContaining("shorter than distlock.watchdog.lease"));
    }

    private void assertFailsNaming(String property, String name) {
        runner.withPropertyValues(property)
                .run(context -> assertThat(context)
                        .as(property)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining(name));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnLockConfiguration {

        @Bean
        RedisLock ownLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("own:").build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnSubscriptionConfiguration {

        @Bean
        ReleaseSubscription ownSubscription(RedisConnectionFactory connectionFactory) {
            return new ReleaseSubscription(connectionFactory);
        }
    }
}
