package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.redis.RedisLock;
import io.distlock.test.redis.TestRedisSentinel;
import io.lettuce.core.ReadFrom;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The {@link Lock} bean on a Redis Sentinel deployment named by Spring Boot's {@code spring.data.redis.sentinel.*}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SentinelAutoConfigurationTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static TestRedisSentinel sentinel;

    private final String key = "sentinel-autoconfig:" + UUID.randomUUID();

    @BeforeAll
    static void startSentinel() {
        sentinel = TestRedisSentinel.start();
    }

    @AfterAll
    static void stopSentinel() {
        sentinel.close();
    }

    @Test
    void theLockBeanLocksOnThePrimaryTheSentinelsName() {
        runner().run(context -> {
            LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
            RedisSentinelConfiguration configuration = factory.getSentinelConfiguration();
            assertThat(configuration).isNotNull();
            assertThat(configuration.getMaster().getName()).isEqualTo(sentinel.masterName());
            assertThat(configuration.getSentinels())
                    .map(node -> node.getHost() + ":" + node.getPort())
                    .containsExactlyInAnyOrderElementsOf(sentinel.sentinelNodes());
            Lock lock = context.getBean(Lock.class);

            LockHandle held = lock.tryAcquire(key, Lease.fixed(LEASE)).orElseThrow();

            assertThat(sentinel.primary().command("GET", "{distlock:" + key + "}"))
                    .startsWith(held.ownerToken() + "#");
            assertThat(held.isHeld()).isTrue();
            held.release();
            assertThat(sentinel.primary().command("EXISTS", "{distlock:" + key + "}"))
                    .isEqualTo("0");
        });
    }

    @Test
    void aWaiterOfAnotherInstanceIsWokenByAReleaseThroughTheSentinelsPubSub() {
        runner().run(context -> {
            Lock lock = context.getBean(Lock.class);
            LockHandle held = lock.tryAcquire(key, Lease.fixed(LEASE)).orElseThrow();
            try (RedisLock otherInstance = RedisLock.builder(context.getBean(RedisConnectionFactory.class))
                    .build()) {
                CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
                    try {
                        return otherInstance.tryAcquire(key, Lease.fixed(LEASE), LEASE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return Optional.empty();
                    }
                });
                await().atMost(Duration.ofSeconds(5))
                        .until(() -> String.valueOf(sentinel.primary().command("GET", "{distlock:" + key + "}"))
                                .contains("+"));

                long releaseNanos = System.nanoTime();
                held.release();

                LockHandle taken = waiter.get(5, TimeUnit.SECONDS).orElseThrow();
                assertThat(Duration.ofNanos(System.nanoTime() - releaseNanos)).isLessThan(Duration.ofSeconds(2));
                taken.release();
            }
        });
    }

    @Test
    void theLockBeanWorksOnLettucesMasterReplicaConnectionWhenReadFromIsSet() {
        runner().withPropertyValues("spring.data.redis.lettuce.read-from=upstream")
                .run(context -> {
                    assertThat(context.getBean(LettuceConnectionFactory.class)
                                    .getClientConfiguration()
                                    .getReadFrom())
                            .contains(ReadFrom.UPSTREAM);
                    Lock lock = context.getBean(Lock.class);

                    // Another test of this class may have failed the primary over just before; Lettuce's view of
                    // which node is the master follows within seconds.
                    LockHandle held = await().atMost(Duration.ofSeconds(15))
                            .ignoreException(LockBackendException.class)
                            .until(() -> lock.tryAcquire(key), Optional::isPresent)
                            .orElseThrow();

                    assertThat(sentinel.primary().command("GET", "{distlock:" + key + "}"))
                            .startsWith(held.ownerToken() + "#");
                    held.extend(LEASE);
                    assertThat(held.remainingLease()).isGreaterThan(LEASE.minusSeconds(5));
                    held.release();
                    assertThat(held.isHeld()).isFalse();
                });
    }

    @Test
    void theLockBeanWorksAgainAfterAFailoverWithBootsDefaultClientSettings() {
        runner().run(context -> {
            Lock lock = context.getBean(Lock.class);
            lock.tryAcquire(key + ":before", Lease.fixed(LEASE)).orElseThrow().release();

            long killNanos = System.nanoTime();
            sentinel.killPrimary();
            AtomicInteger attempt = new AtomicInteger();
            AtomicReference<LockHandle> acquired = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .ignoreException(LockBackendException.class)
                    .until(() -> {
                        lock.tryAcquire(key + ":after-" + attempt.incrementAndGet(), Lease.fixed(LEASE))
                                .ifPresent(acquired::set);
                        return acquired.get() != null;
                    });
            System.out.printf(
                    "sentinel failover recovery with Spring Boot's defaults: %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killNanos));
            acquired.get().release();

            sentinel.awaitFailover(Duration.ofSeconds(20));
        });
    }

    private static ApplicationContextRunner runner() {
        return DistlockContexts.runner()
                .withPropertyValues(
                        "spring.data.redis.sentinel.master=" + sentinel.masterName(),
                        "spring.data.redis.sentinel.nodes=" + String.join(",", sentinel.sentinelNodes()),
                        "spring.data.redis.timeout=2s");
    }
}
