package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.jdbc.JdbcLeaseStore;
import io.distlock.redis.RedisLock;
import io.distlock.store.StoreLock;
import io.distlock.test.redis.TestRedis;
import io.distlock.zookeeper.ZooKeeperLeaseStore;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Which backend the {@link Lock} bean is built on: the one {@code distlock.backend} names, or the only one present; a
 * choice that cannot be made fails start-up with the choices.
 */
class LockBackendSelectionTest {

    private static TestingServer zooKeeper;

    private final ApplicationContextRunner onRedis = DistlockContexts.onSharedRedis();
    /** Spring Boot's Redis auto-configuration still makes a connection factory, but lock-redis is missing. */
    private final ApplicationContextRunner withoutRedis =
            DistlockContexts.runner().withClassLoader(new FilteredClassLoader("io.distlock.redis."));

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    @Test
    void redisAloneIsChosenWithoutAskingAndOtherModulesOnTheClassPathDoNotCount() {
        onRedis.run(context -> assertThat(context).hasSingleBean(RedisLock.class));
    }

    @Test
    void zooKeeperAloneIsChosenFromItsConnectStringAndLocks() {
        withoutRedis
                .withPropertyValues("distlock.zookeeper.connect-string=" + zooKeeper.getConnectString())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StoreLock lock = context.getBean(StoreLock.class);
                    assertThat(lock.toString()).contains("zookeeper");
                    assertThat(lock.watchdogLease()).isEqualTo(Duration.ofSeconds(30));
                    try (LockHandle held = lock.tryAcquire(
                                    "selection:" + UUID.randomUUID(), Lease.fixed(Duration.ofSeconds(5)))
                            .orElseThrow()) {
                        assertThat(held.isHeld()).isTrue();
                    }
                });
    }

    @Test
    void zooKeeperUsesTheApplicationsCuratorClientAndLeavesItOpen() {
        withoutRedis.withUserConfiguration(CuratorClient.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(StoreLock.class);
            CuratorFramework client = context.getBean(CuratorFramework.class);
            context.getBean(StoreLock.class).close();
            assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
        });
    }

    @Test
    void jdbcAloneIsChosenFromTheDataSourceAndItsLockOutlivesTheCallersRollback() {
        withoutRedis
                .withUserConfiguration(H2Database.class)
                .withPropertyValues("distlock.jdbc.create-table=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StoreLock lock = context.getBean(StoreLock.class);
                    assertThat(lock.toString()).contains("jdbc:h2[table=distlock_locks]");
                    String key = "selection:" + UUID.randomUUID();
                    TransactionTemplate transaction = new TransactionTemplate(
                            new DataSourceTransactionManager(context.getBean(DataSource.class)));
                    LockHandle held = transaction.execute(status -> {
                        status.setRollbackOnly();
                        return lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                                .orElseThrow();
                    });
                    assertThat(held.isHeld()).isTrue();
                    assertThat(lock.keyState(key).held())
                            .as("held after the rollback")
                            .isTrue();
                    held.release();
                    assertThat(lock.keyState(key).held()).isFalse();
                });
    }

    @Test
    void jdbcWithoutItsTableFailsStartUpNamingTheTableAndHowToCreateIt() {
        withoutRedis
                .withUserConfiguration(H2Database.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("distlock cannot use its lock table distlock_locks")
                        .hasStackTraceContaining("io/distlock/jdbc/schema-h2.sql")
                        .hasStackTraceContaining("distlock.jdbc.create-table=true"));
    }

    @Test
    void redisAndAJdbcDataSourceTogetherNeedAChoice() {
        onRedis.withUserConfiguration(H2Database.class)
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("redis (lock-redis with a RedisConnectionFactory bean)")
                        .hasMessageContaining("jdbc (lock-jdbc with a DataSource bean)"));
        onRedis.withUserConfiguration(H2Database.class)
                .withPropertyValues("distlock.backend=redis")
                .run(context -> assertThat(context).hasSingleBean(RedisLock.class));
    }

    @Test
    void twoBackendsPresentAndNoneChosenFailStartUpListingTheChoices() {
        onRedis.withPropertyValues("distlock.zookeeper.connect-string=" + zooKeeper.getConnectString())
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("more than one lock backend")
                        .hasMessageContaining("redis (lock-redis with a RedisConnectionFactory bean)")
                        .hasMessageContaining("zookeeper (lock-zookeeper with distlock.zookeeper.connect-string)")
                        .hasMessageContaining("distlock.backend=redis|jdbc|zookeeper|in-memory"));
    }

    @Test
    void theNamedBackendIsChosenAmongSeveral() {
        onRedis.withPropertyValues(
                        "distlock.zookeeper.connect-string=" + zooKeeper.getConnectString(),
                        "distlock.backend=zookeeper")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(StoreLock.class);
                    assertThat(context).doesNotHaveBean(RedisLock.class);
                });
        onRedis.withPropertyValues(
                        "distlock.zookeeper.connect-string=" + zooKeeper.getConnectString(), "distlock.backend=REDIS")
                .run(context -> assertThat(context).hasSingleBean(RedisLock.class));
    }

    @Test
    void aNamedBackendWhoseModuleIsMissingFailsStartUpNamingTheStarterToAdd() {
        onRedis.withClassLoader(new FilteredClassLoader(ZooKeeperLeaseStore.class))
                .withPropertyValues("distlock.backend=zookeeper")
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("distlock.backend=zookeeper, but lock-zookeeper is not on the class path"
                                + " (add io.distlock:lock-zookeeper-spring-boot-starter)")
                        .hasMessageContaining("Present: redis (lock-redis with a RedisConnectionFactory bean)"));
        onRedis.withClassLoader(new FilteredClassLoader(JdbcLeaseStore.class))
                .withUserConfiguration(H2Database.class)
                .withPropertyValues("distlock.backend=jdbc")
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("distlock.backend=jdbc, but lock-jdbc is not on the class path"
                                + " (add io.distlock:lock-jdbc-spring-boot-starter)"));
    }

    /** Redis counts as present with lock-redis, not with Spring Data Redis and Lettuce alone. */
    @Test
    void redisNamedWithoutLockRedisFailsStartUpNamingTheStarterToAdd() {
        withoutRedis
                .withPropertyValues(
                        "spring.data.redis.port=" + TestRedis.shared().port(),
                        "distlock.zookeeper.connect-string=" + zooKeeper.getConnectString(),
                        "distlock.backend=redis")
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("distlock.backend=redis, but lock-redis is not on the class path"
                                + " (add io.distlock:lock-spring-boot-starter)")
                        .hasMessageContaining(
                                "Present: zookeeper (lock-zookeeper with" + " distlock.zookeeper.connect-string)"));
        withoutRedis
                .withPropertyValues(
                        "spring.data.redis.port=" + TestRedis.shared().port())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasBean("redisConnectionFactory");
                    assertThat(context).doesNotHaveBean(Lock.class);
                });
    }

    @Test
    void aNamedBackendWithoutItsConnectionFailsStartUpNamingWhatIsMissing() {
        onRedis.withPropertyValues("distlock.backend=zookeeper")
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("distlock.backend=zookeeper, but the application has no CuratorFramework"
                                + " bean or distlock.zookeeper.connect-string"));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
                .withPropertyValues("distlock.backend=redis")
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("distlock.backend=redis, but the application has no"
                                + " RedisConnectionFactory bean (spring-boot-starter-data-redis) or"
                                + " distlock.redlock.nodes"));
        DistlockContexts.runner()
                .withPropertyValues("distlock.backend=jdbc")
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("distlock.backend=jdbc, but the application has no DataSource bean."
                                + " Present: redis"));
    }

    @Test
    void anUnknownBackendFailsStartUpListingTheBackends() {
        onRedis.withPropertyValues("distlock.backend=mongo")
                .run(context -> assertThat(startupFailure(context))
                        .hasMessageContaining("distlock.backend=mongo is not a distlock backend")
                        .hasMessageContaining("redis|jdbc|zookeeper|in-memory"));
    }

    @Test
    void anApplicationsOwnLockBeanIsLeftAloneWhateverIsPresent() {
        onRedis.withPropertyValues("distlock.zookeeper.connect-string=" + zooKeeper.getConnectString())
                .withUserConfiguration(OwnLock.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(Lock.class);
                    assertThat(context.getBean(Lock.class)).isSameAs(context.getBean("ownLock"));
                });
    }

    /** The start-up failure's own cause, past the context's wrapping. */
    private static Throwable startupFailure(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        return NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
    }

    @Configuration(proxyBeanMethods = false)
    static class H2Database {

        @Bean
        DataSource dataSource() {
            return new SimpleDriverDataSource(
                    new org.h2.Driver(), "jdbc:h2:mem:selection-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CuratorClient {

        @Bean(destroyMethod = "close")
        CuratorFramework curatorFramework() {
            CuratorFramework client = CuratorFrameworkFactory.newClient(
                    zooKeeper.getConnectString(), new ExponentialBackoffRetry(100, 3));
            client.start();
            return client;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnLock {

        @Bean
        Lock ownLock() {
            return StoreLock.builder(ZooKeeperLeaseStore.builder(zooKeeper.getConnectString())
                            .build())
                    .build();
        }
    }
}
