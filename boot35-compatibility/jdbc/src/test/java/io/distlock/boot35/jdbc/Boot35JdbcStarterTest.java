package io.distlock.boot35.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.boot35.support.LostUpdateRace;
import io.distlock.boot35.support.NoRedisConnectionFactory;
import io.distlock.boot35.support.RacyCounter;
import io.distlock.jdbc.JdbcLeaseStore;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * An application on Spring Boot 3.5 whose only distlock dependency is the JDBC starter, with Boot's auto-configured H2
 * {@link DataSource} and no {@code distlock.backend}, as a user's that locks on its database would be: the {@link Lock}
 * bean is a {@link StoreLock} on that database, a second client is refused a held key, and the annotation excludes
 * concurrent callers.
 *
 * <p>Why this module exists: Spring Boot 3.5 keeps its Redis auto-configuration in {@code spring-boot-autoconfigure},
 * where it switches on whenever Spring Data Redis is on the class path. Should the JDBC starter bring Spring Data Redis
 * and Lettuce with it, such an application gets a Redis connection factory it never asked for, distlock finds two
 * backends, and start-up fails unless the application names one. So these tests also check that the application has
 * no {@code RedisConnectionFactory} bean, by class name, so that they compile whether or not Spring Data Redis is on
 * the class path.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Boot35JdbcStarterTest {

    private final String key = "boot35-jdbc:" + UUID.randomUUID();

    // Boot's own H2 DataSource, a new database for each context; distlock creates its table there.
    private final ApplicationContextRunner application = new ApplicationContextRunner()
            .withUserConfiguration(Application.class)
            .withPropertyValues("distlock.jdbc.create-table=true", "distlock.default-wait=60s");

    @Test
    void runsOnSpringBoot35WithTheJdbcModuleAndNotTheZooKeeperOne() {
        assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
        assertThat(ClassUtils.isPresent("io.distlock.jdbc.JdbcLeaseStore", null))
                .isTrue();
        assertThat(ClassUtils.isPresent("io.distlock.zookeeper.ZooKeeperLeaseStore", null))
                .isFalse();
    }

    @Test
    void jdbcStarterLocksWithoutNamingABackendAndCreatesNoRedisConnectionFactory() {
        application.run(context -> {
            assertThat(context).hasNotFailed();
            NoRedisConnectionFactory.assertNoneIn(context, "JDBC starter");
            Lock lock = context.getBean(Lock.class);
            assertThat(lock).isInstanceOf(StoreLock.class);
            assertThat(lock.toString()).contains("jdbc:h2");

            try (LockHandle held = lock.tryAcquire(key).orElseThrow();
                    StoreLock secondClient = StoreLock.builder(JdbcLeaseStore.builder(context.getBean(DataSource.class))
                                    .build())
                            .build()) {
                assertThat(held.isHeld()).isTrue();
                Optional<LockHandle> otherThread = CompletableFuture.supplyAsync(
                                () -> lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5))))
                        .get(10, TimeUnit.SECONDS);
                assertThat(otherThread).as("the Lock bean, from another thread").isEmpty();
                assertThat(secondClient.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5))))
                        .as("a second client of the same database")
                        .isEmpty();
                held.release();
                secondClient
                        .tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)))
                        .orElseThrow()
                        .release();
            }
        });
    }

    /**
     * Naming the backend gets an application past the choice between two backends, but not past the Redis connection
     * that it never asked for; this separates the two parts of the suspected defect.
     */
    @Test
    void namingTheJdbcBackendStillLeavesTheApplicationWithoutARedisConnectionFactory() {
        application.withPropertyValues("distlock.backend=jdbc").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Lock.class)).isInstanceOf(StoreLock.class);
            NoRedisConnectionFactory.assertNoneIn(context, "JDBC starter");
        });
    }

    @Test
    void annotatedMethodExcludesConcurrentCallersWhileTheUnlockedTwinLosesUpdates() throws Exception {
        application.run(context -> {
            assertThat(context).hasNotFailed();
            Tally tally = context.getBean(Tally.class);

            LostUpdateRace.assertLockKeepsEveryIncrement("JDBC starter", tally, tally::addLocked);
        });
    }

    /** The application's bean whose increments take turns under the lock. */
    static class Tally extends RacyCounter {

        @DistributedLock(key = "'boot35-jdbc:tally'")
        public void addLocked() {
            increment();
        }
    }

    /** Like a user's {@code @SpringBootApplication}, without scanning this test's other configurations. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Tally tally() {
            return new Tally();
        }
    }
}
