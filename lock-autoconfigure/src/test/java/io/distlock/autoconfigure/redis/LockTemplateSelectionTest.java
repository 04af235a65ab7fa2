package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.redis.RedisLock;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.h2.Driver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.transaction.support.TransactionTemplate;

/** The template the auto-configured lock runs on: the application's where sharing it is safe, never a generic one. */
class LockTemplateSelectionTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis();

    @Test
    void sharesSpringBootsStringRedisTemplate() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);

            assertThat(lock.template()).isSameAs(context.getBean(StringRedisTemplate.class));
            assertLocksInRedis(lock);
        });
    }

    @Test
    void doesNotShareATemplateWithTransactionSupport() {
        runner.withUserConfiguration(TransactionalTemplateConfiguration.class).run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            StringRedisTemplate applicationTemplate = context.getBean(StringRedisTemplate.class);

            assertOwnTemplate(context, lock);
            assertThat(ReflectionTestUtils.getField(lock.template(), "enableTransactionSupport"))
                    .as("transaction support (RedisTemplate has no getter for it)")
                    .isEqualTo(false);
            assertLocksInRedis(lock);

            RedisScript<Long> one = RedisScript.of("return 1", Long.class);
            // Also loads the script, so that the EVALSHA queued below finds it when the commit sends EXEC.
            assertThat(applicationTemplate.execute(one, List.of()))
                    .as("outside a transaction")
                    .isEqualTo(1L);
            TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(
                    new SimpleDriverDataSource(new Driver(), "jdbc:h2:mem:template-" + UUID.randomUUID())));
            transaction.executeWithoutResult(status -> {
                assertThat(applicationTemplate.execute(one, List.of()))
                        .as("queued in MULTI inside a transaction")
                        .isNull();
                assertLocksInRedis(lock);
            });
        });
    }

    @Test
    void sharesNoneOfSeveralStringRedisTemplatesEvenAPrimaryOne() {
        runner.withUserConfiguration(TwoTemplatesConfiguration.class).run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);

            assertThat(context.getBeansOfType(StringRedisTemplate.class)).hasSize(2);
            assertOwnTemplate(context, lock);
            assertLocksInRedis(lock);
        });
    }

    @Test
    void doesNotShareATemplateOnAnotherConnectionFactory() {
        runner.withUserConfiguration(TemplateOnAnotherFactoryConfiguration.class)
                .run(context -> {
                    RedisLock lock = context.getBean(RedisLock.class);

                    assertThat(context).hasSingleBean(StringRedisTemplate.class);
                    assertOwnTemplate(context, lock);
                    assertLocksInRedis(lock);
                });
    }

    @Test
    void neverUsesAGenericRedisTemplate() {
        // Without Spring Boot's Redis auto-configuration: only a StringRedisTemplate bean stops its own.
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
                .withUserConfiguration(GenericTemplateOnlyConfiguration.class)
                .run(context -> {
                    RedisLock lock = context.getBean(RedisLock.class);

                    assertThat(context).doesNotHaveBean(StringRedisTemplate.class);
                    assertThat(lock.template())
                            .isNotSameAs(context.getBean("redisTemplate"))
                            .isInstanceOf(StringRedisTemplate.class);
                    assertThat(lock.template().getConnectionFactory())
                            .isSameAs(context.getBean(RedisConnectionFactory.class));
                    assertLocksInRedis(lock);
                });
    }

    @Test
    void jedisFailsStartupSayingWhyAndNamingLettuce() {
        runner.withPropertyValues("spring.data.redis.client-type=jedis").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .as("the exception start-up reports")
                    .hasMessageContaining("distlockLock")
                    .hasMessageContaining("JedisConnectionFactory")
                    .rootCause()
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("JedisConnectionFactory")
                    .hasMessageContaining("reactive")
                    .hasMessageContaining("Lettuce");
        });
    }

    /** The lock's template is distlock's own: no bean, on the application's connection factory. */
    private static void assertOwnTemplate(AssertableApplicationContext context, RedisLock lock) {
        assertThat(lock.template()).isInstanceOf(StringRedisTemplate.class);
        assertThat(context.getBeansOfType(RedisTemplate.class).values()).doesNotContain(lock.template());
        assertThat(lock.template().getConnectionFactory()).isSameAs(context.getBean(RedisConnectionFactory.class));
    }

    private static void assertLocksInRedis(RedisLock lock) {
        LockHandle held = lock.tryAcquire("template-selection:" + UUID.randomUUID(), Lease.fixed(Duration.ofSeconds(5)))
                .orElseThrow();
        assertThat(held.isHeld()).isTrue();
        held.release();
        assertThat(held.isHeld()).isFalse();
    }

    @Configuration(proxyBeanMethods = false)
    static class TransactionalTemplateConfiguration {

        @Bean
        StringRedisTemplate transactionalTemplate(RedisConnectionFactory connectionFactory) {
            StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
            template.setEnableTransactionSupport(true);
            return template;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoTemplatesConfiguration {

        @Bean
        @Primary
        StringRedisTemplate primaryTemplate(RedisConnectionFactory connectionFactory) {
            return new StringRedisTemplate(connectionFactory);
        }

        @Bean
        StringRedisTemplate otherTemplate(RedisConnectionFactory connectionFactory) {
            return new StringRedisTemplate(connectionFactory);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TemplateOnAnotherFactoryConfiguration {

        /** Never started: the lock must not send anything through it. */
        @Bean
        StringRedisTemplate templateOnAnotherFactory() {
            return new StringRedisTemplate(new LettuceConnectionFactory());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class GenericTemplateOnlyConfiguration {

        @Bean
        LettuceConnectionFactory redisConnectionFactory() {
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration(
                    TestRedis.shared().host(), TestRedis.shared().port()));
        }

        @Bean
        RedisTemplate<Object, Object> redisTemplate(RedisConnectionFactory connectionFactory) {
            RedisTemplate<Object, Object> template = new RedisTemplate<>();
            template.setConnectionFactory(connectionFactory);
            return template;
        }
    }
}
