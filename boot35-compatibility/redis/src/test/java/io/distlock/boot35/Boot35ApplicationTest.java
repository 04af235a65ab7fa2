package io.distlock.boot35;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.boot35.support.LostUpdateRace;
import io.distlock.boot35.support.RacyCounter;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import io.distlock.test.redis.TestRedis;
import io.lettuce.core.event.connection.ConnectedEvent;
import io.lettuce.core.resource.ClientResources;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An application on Spring Boot 3.5 that adds the starter and sets {@code spring.data.redis.*}, as a user's does: the
 * annotation locks, the {@link Lock} bean and its properties work, and mistakes still fail at start-up.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Boot35ApplicationTest {

    private final String key = "boot35:" + UUID.randomUUID();

    private final ApplicationContextRunner application = new ApplicationContextRunner()
            .withUserConfiguration(Application.class)
            .withPropertyValues(
                    "spring.data.redis.port=" + TestRedis.shared().port(),
                    "spring.data.redis.timeout=2s",
                    "distlock.default-wait=60s");

    @Test
    void runsOnSpringBoot35() {
        assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    }

    @Test
    void annotatedMethodExcludesConcurrentCallersWhileTheUnlockedTwinLosesUpdates() throws Exception {
        application.run(context -> {
            assertThat(context).hasNotFailed();
            Tally tally = context.getBean(Tally.class);

            LostUpdateRace.assertLockKeepsEveryIncrement("Redis starter", tally, tally::addLocked);
        });
    }

    @Test
    void lockBeanExcludesASecondHolderAndAppliesTheProperties() {
        application
                .withPropertyValues("distlock.key-prefix=boot35:", "distlock.watchdog.lease=1s")
                .run(context -> {
                    Lock lock = context.getBean(Lock.class);
                    assertThat(lock).isInstanceOf(RedisLock.class);
                    try (LockHandle held = lock.tryAcquire(key).orElseThrow()) {
                        Optional<LockHandle> second = CompletableFuture.supplyAsync(
                                        () -> lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5))))
                                .get(10, TimeUnit.SECONDS);
                        assertThat(second).isEmpty();
                        StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
                        assertThat(redis.hasKey("{boot35:" + key + "}")).isTrue();
                        // The watchdog keeps a 1 s lease alive across renewals.
                        await().during(Duration.ofMillis(2500))
                                .atMost(Duration.ofSeconds(4))
                                .until(() -> !held.isLost());
                    }
                    LockHandle next = lock.tryAcquire(key).orElseThrow();
                    next.release();
                });
    }

    /**
     * A Redlock on Spring Data Redis 3.5's Lettuce connection factories: each node, one of them with a password in its
     * URL, holds the key while it is held, and the annotated methods lock on it. The nodes connect on Spring Boot 3.5's
     * Lettuce {@code ClientResources} bean, whose event bus sees every connection.
     */
    @Test
    void redlockNodesMakeTheLockBeanARedlock() {
        List<TestRedis> nodes =
                List.of(TestRedis.builder().password("boot35-secret").start(), TestRedis.start(), TestRedis.start());
        try {
            application
                    .withUserConfiguration(ConnectionEvents.class)
                    .withPropertyValues(
                            "distlock.shutdown.grace-period=0s",
                            "distlock.redlock.nodes[0].url=redis://:boot35-secret@" + address(nodes.get(0)),
                            "distlock.redlock.nodes[1].url=redis://" + address(nodes.get(1)),
                            "distlock.redlock.nodes[2].url=redis://" + address(nodes.get(2)))
                    .run(context -> {
                        Redlock lock = context.getBean(Redlock.class);
                        assertThat(lock.nodes()).isEqualTo(3);
                        assertThat(context).doesNotHaveBean(RedisLock.class);
                        try (LockHandle held = lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                                .orElseThrow()) {
                            // A grant counts once a majority answered; the last node follows soon after.
                            await().atMost(Duration.ofSeconds(10))
                                    .until(() -> nodes.stream()
                                            .allMatch(node -> String.valueOf(
                                                            node.command("GET", "{distlock:" + key + "}"))
                                                    .startsWith(held.ownerToken() + "#")));
                        }
                        Tally tally = context.getBean(Tally.class);
                        int before = tally.count();
                        tally.addLocked();
                        assertThat(tally.count()).isEqualTo(before + 1);
                        Set<Integer> connected = context.getBean(ConnectionEvents.class).ports;
                        await().atMost(Duration.ofSeconds(10))
                                .untilAsserted(() -> assertThat(connected)
                                        .containsAll(nodes.stream()
                                                .map(TestRedis::port)
                                                .toList()));
                    });
        } finally {
            nodes.forEach(TestRedis::close);
        }
    }

    @Test
    void applicationsOwnLockReplacesDistlocks() {
        application.withUserConfiguration(OwnLock.class).run(context -> {
            assertThat(context).hasSingleBean(Lock.class);
            assertThat(context.getBean(Lock.class)).isSameAs(context.getBean("ownLock"));
        });
    }

    @Test
    void invalidAnnotationFailsStartup() {
        application
                .withUserConfiguration(BrokenAnnotation.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll("Broken.deduct(String)", "not a valid SpEL expression"));
    }

    @Test
    void invalidPropertyFailsStartup() {
        application
                .withPropertyValues("distlock.watchdog.lease=10ms")
                .run(context -> assertThat(context).getFailure().hasStackTraceContaining("distlock.watchdog.lease"));
    }

    @Test
    void annotatedMethodsWithoutRedisFailStartupNamingThem() {
        application
                .withPropertyValues(
                        "spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration")
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContainingAll("Tally.addLocked()", "no RedisConnectionFactory bean"));
    }

    private static String address(TestRedis server) {
        return server.host() + ":" + server.port();
    }

    /** The application's bean whose increments take turns under the lock. */
    static class Tally extends RacyCounter {

        @DistributedLock(key = "'boot35:tally'")
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

    /**
     * The ports that connections made on the application's Lettuce resources reached. A user configuration's bean, so
     * it listens before the Redlock connects.
     */
    @Configuration(proxyBeanMethods = false)
    static class ConnectionEvents {

        final Set<Integer> ports = ConcurrentHashMap.newKeySet();

        ConnectionEvents(ClientResources applications) {
            applications
                    .eventBus()
                    .get()
                    .ofType(ConnectedEvent.class)
                    .subscribe(connected -> ports.add(((InetSocketAddress) connected.remoteAddress()).getPort()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnLock {

        @Bean
        Lock ownLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("own:").build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BrokenAnnotation {

        @Bean
        Broken broken() {
            return new Broken();
        }
    }

    static class Broken {

        @DistributedLock(key = "'stock:' +")
        public String deduct(String sku) {
            return sku;
        }
    }
}
