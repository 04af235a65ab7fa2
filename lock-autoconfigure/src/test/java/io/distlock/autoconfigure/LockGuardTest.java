package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.annotation.DistributedLockAdvisor;
import io.distlock.redis.RedisLock;
import io.distlock.test.redis.TestRedis;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Primary;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Annotated methods never run without their lock unnoticed: when distlock's Lock is missing or ambiguous, start-up
 * fails naming the methods and the reason; when distlock is switched off, start-up warns which methods run unlocked.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockGuardTest {

    private static final String METHOD = "LockGuardTest$Guarded.deduct(String)";

    /** The starter's auto-configuration without Spring Boot's Redis auto-configuration. */
    private final ApplicationContextRunner withoutRedis = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AopAutoConfiguration.class,
                    DistributedLockAutoConfiguration.class,
                    DistributedLockAnnotationAutoConfiguration.class));

    @Test
    void startupFailsNamingTheMethodsWhenThereIsNoRedisConnectionFactory() {
        withoutRedis
                .withBean(Guarded.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll(
                                METHOD,
                                "there is no Lock bean",
                                "distlock found no lock backend",
                                "redis: the application has no RedisConnectionFactory bean",
                                "jdbc: the application has no DataSource bean",
                                "distlock.enabled=false"));
    }

    @Test
    void startupFailsNamingTheLockAutoConfigurationWhenItDidNotRun() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        AopAutoConfiguration.class, DistributedLockAnnotationAutoConfiguration.class))
                .withBean(Guarded.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll(
                                METHOD, "there is no Lock bean", "DistributedLockAutoConfiguration) did not run"));
    }

    @Test
    void startupFailsWhenTheConnectionFactoryComesTooLateForTheAutoConfiguration() {
        withoutRedis
                .withConfiguration(AutoConfigurations.of(LateRedisAutoConfiguration.class))
                .withBean(Guarded.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll(METHOD, "backed off", "lateConnectionFactory", "define one"));
    }

    @Test
    void disabledDistlockStartsAndWarnsWhichMethodsRunUnlocked(CapturedOutput output) {
        withoutRedis
                .withPropertyValues("distlock.enabled=false")
                .withBean(Guarded.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLockAdvisor.class);
                    assertThat(context.getBean(Guarded.class).deduct("apple")).isEmpty();
                });
        assertThat(output).contains("distlock.enabled=false", "run WITHOUT a lock", METHOD);
    }

    @Test
    void withoutAnnotatedMethodsAMissingLockIsFine() {
        withoutRedis.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(Lock.class));
    }

    @Test
    void startupFailsNamingTheMethodsOfLazyBeansWhenThereIsNoLock() {
        withoutRedis
                .withUserConfiguration(LazyGuarded.class)
                .run(context ->
                        assertThat(context).getFailure().hasMessageContainingAll(METHOD, "there is no Lock bean"));
    }

    @Test
    void disabledDistlockAlsoWarnsAboutTheMethodsOfLazyBeans(CapturedOutput output) {
        withoutRedis
                .withPropertyValues("distlock.enabled=false")
                .withUserConfiguration(LazyGuarded.class)
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains("run WITHOUT a lock", METHOD);
    }

    @Test
    void startupFailsNamingBeansCreatedBeforeDistlocksPostProcessorsSinceTheyAreNotProxied() {
        DistlockContexts.onSharedRedis()
                .withUserConfiguration(NeededByAnEarlyPostProcessor.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll(METHOD, "bean 'guarded'", "not proxied", "lazily"));
    }

    @Test
    void startupFailsNamingTheMethodsOfBeansCreatedEarlyWhenThereIsNoLock() {
        withoutRedis
                .withUserConfiguration(NeededByAnEarlyPostProcessor.class)
                .run(context ->
                        assertThat(context).getFailure().hasMessageContainingAll(METHOD, "there is no Lock bean"));
    }

    @Test
    void applicationsOwnLockWorksWithoutAnyRedisConnectionFactoryBean() {
        withoutRedis
                .withUserConfiguration(OwnLock.class)
                .withBean(Guarded.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(RedisConnectionFactory.class);
                    assertThat(context.getBean(Guarded.class).deduct("apple")).contains("stock:apple");
                });
    }

    @Test
    void twoLocksFailStartupNamingThem() {
        DistlockContexts.onSharedRedis()
                .withUserConfiguration(TwoLocks.class)
                .withBean(Guarded.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll(METHOD, "2 Lock beans", "firstLock", "secondLock", "@Primary"));
    }

    @Test
    void severalPrimaryLocksFailStartupNamingThem() {
        DistlockContexts.onSharedRedis()
                .withUserConfiguration(TwoPrimaryLocks.class)
                .withBean(Guarded.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll(
                                METHOD, "2 Lock beans", "firstPrimaryLock", "secondPrimaryLock", "exactly one"));
    }

    @Test
    void aPrimaryLockAmongSeveralIsTheOneAnnotatedMethodsUse() {
        DistlockContexts.onSharedRedis()
                .withUserConfiguration(TwoLocks.class, PrimaryLock.class)
                .withBean(Guarded.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Guarded.class).deduct("apple")).contains("stock:apple");
                });
    }

    public static class Guarded {
        @DistributedLock(key = "'stock:' + #sku")
        public Optional<String> deduct(String sku) {
            return LockContext.current().map(LockHandle::key);
        }
    }

    /** A connection factory from an auto-configuration that runs after distlock's, as on a Boot line it does not know. */
    @AutoConfiguration(after = DistributedLockAnnotationAutoConfiguration.class)
    static class LateRedisAutoConfiguration {
        @Bean(destroyMethod = "destroy")
        LettuceConnectionFactory lateConnectionFactory() {
            return connectionFactory();
        }
    }

    /** A lock on a connection of the application's own that is no bean, so there is no RedisConnectionFactory bean. */
    @Configuration(proxyBeanMethods = false)
    static class OwnLock implements DisposableBean {
        private final LettuceConnectionFactory connection = connectionFactory();

        @Bean
        Lock ownLock() {
            return RedisLock.builder(connection).build();
        }

        @Override
        public void destroy() {
            connection.destroy();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LazyGuarded {
        @Bean
        @Lazy
        Guarded guarded() {
            return new Guarded();
        }
    }

    /** A post-processor that needs the annotated bean, which is then created before distlock's post-processors. */
    @Configuration(proxyBeanMethods = false)
    static class NeededByAnEarlyPostProcessor {
        @Bean
        Guarded guarded() {
            return new Guarded();
        }

        @Bean
        static EarlyPostProcessor earlyPostProcessor(Guarded guarded) {
            return new EarlyPostProcessor();
        }
    }

    static class EarlyPostProcessor implements BeanPostProcessor, PriorityOrdered {
        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoPrimaryLocks {
        @Bean
        @Primary
        Lock firstPrimaryLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("first:").build();
        }

        @Bean
        @Primary
        Lock secondPrimaryLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("second:").build();
        }
    }

    /** Two locks of the application's own; distlock's then backs off. */
    @Configuration(proxyBeanMethods = false)
    static class TwoLocks {
        @Bean
        Lock firstLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("first:").build();
        }

        @Bean
        Lock secondLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("second:").build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimaryLock {
        @Bean
        @Primary
        Lock primaryLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("primary:").build();
        }
    }

    private static LettuceConnectionFactory connectionFactory() {
        TestRedis redis = TestRedis.shared();
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
        if (redis.password() != null) {
            server.setPassword(redis.password());
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server);
        factory.afterPropertiesSet();
        return factory;
    }
}
