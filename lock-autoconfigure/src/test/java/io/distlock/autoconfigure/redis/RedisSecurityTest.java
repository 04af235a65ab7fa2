package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.redis.RedisLock;
import io.distlock.tck.SecretsStayOutOfOutput;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** distlock over Spring Boot's standard Redis security settings: a password, and an ACL user limited to its keys. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisSecurityTest {

    @RegisterExtension
    static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput("s3cret with spaces", "app-secret");

    /** The minimal ACL documented in the README. */
    static final String DISTLOCK_ACL = "user app on >app-secret resetkeys ~{distlock:* resetchannels &distlock:* "
            + "-@all +evalsha +eval +subscribe +unsubscribe +ping +set +get +del +incr +pexpire +pttl +publish +info"
            + " +type +time +hget +hset +hdel +hgetall +zadd +zrange +zrem +zscore +zrevrange +zremrangebyscore";

    private final ApplicationContextRunner runner =
            DistlockContexts.runner().withPropertyValues("distlock.watchdog.lease=2s");

    private final String key = "security:" + UUID.randomUUID();

    @Test
    void worksWithAPasswordProtectedRedis() {
        try (TestRedis redis =
                TestRedis.builder().password("s3cret with spaces").start()) {
            runner.withPropertyValues(
                            "spring.data.redis.port=" + redis.port(), "spring.data.redis.password=" + redis.password())
                    .run(context -> exerciseEveryKindOfCommand(
                            context.getBean(Lock.class), context.getBean(RedisConnectionFactory.class)));
        }
    }

    @Test
    void worksWithAnAclUserLimitedToTheLockKeysAndChannel() {
        try (TestRedis redis = TestRedis.builder().configLine(DISTLOCK_ACL).start()) {
            runner.withPropertyValues(
                            "spring.data.redis.port=" + redis.port(),
                            "spring.data.redis.username=app",
                            "spring.data.redis.password=app-secret")
                    .run(context -> {
                        exerciseEveryKindOfCommand(
                                context.getBean(Lock.class), context.getBean(RedisConnectionFactory.class));
                        StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
                        assertThatThrownBy(() -> template.opsForValue().get("not-a-lock"))
                                .hasStackTraceContaining("NOPERM");
                        assertThat(redis.command("ACL", "LOG"))
                                .as("denied commands")
                                .doesNotContain("distlock");
                    });
        }
    }

    /**
     * Acquire, re-enter, renew, extend, check, release; and wait for a release announced over pub/sub, by a second
     * client, which is woken by Redis rather than by the releasing client's own process.
     */
    private void exerciseEveryKindOfCommand(Lock lock, RedisConnectionFactory connectionFactory) throws Exception {
        LockHandle renewed = lock.tryAcquire(key).orElseThrow();
        try (LockContext.Scope scope = LockContext.enter(renewed);
                LockHandle nested = lock.tryAcquire(key).orElseThrow()) {
            assertThat(nested.fencingToken()).isEqualTo(renewed.fencingToken());
        }
        Thread.sleep(2500);
        assertThat(renewed.isLost()).as("kept past its 2 s lease by renewals").isFalse();
        renewed.extend(Duration.ofSeconds(5));
        assertThat(renewed.remainingLease()).isPositive();
        RedisLock otherClient = RedisLock.builder(connectionFactory).build();
        CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return otherClient.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
        Thread.sleep(300);
        long released = System.nanoTime();
        renewed.release();
        assertThat(waiter.get(10, TimeUnit.SECONDS)).isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(Duration.ofSeconds(1));
        waiter.get().orElseThrow().release();

        // Readers, renewed and released, then a writer waiting for them; and the fair lock's queue and handover.
        LockHandle reading = lock.reading().tryAcquire(key).orElseThrow();
        LockHandle alsoReading = otherClient
                .reading()
                .tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)))
                .orElseThrow();
        CompletableFuture<Optional<LockHandle>> writer = CompletableFuture.supplyAsync(() -> {
            try {
                return lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
        Thread.sleep(300);
        assertThat(reading.isHeld()).isTrue();
        reading.release();
        alsoReading.release();
        writer.get(10, TimeUnit.SECONDS).orElseThrow().release();
        LockHandle fairHolder =
                lock.fair().tryAcquire(key, Lease.fixed(Duration.ofSeconds(5))).orElseThrow();
        CompletableFuture<Optional<LockHandle>> fairWaiter = CompletableFuture.supplyAsync(() -> {
            try {
                return otherClient.fair().tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
        Thread.sleep(300);
        fairHolder.release();
        fairWaiter.get(10, TimeUnit.SECONDS).orElseThrow().release();

        // A path held with a renewed lease, and a waiter of another client for its ancestor.
        LockHandle path = lock.tree(key).tryAcquire("A/C").orElseThrow();
        CompletableFuture<Optional<LockHandle>> ancestor = CompletableFuture.supplyAsync(() -> {
            try {
                return otherClient
                        .tree(key)
                        .tryAcquire("A", Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
        Thread.sleep(2500);
        assertThat(path.isHeld()).isTrue();
        path.release();
        ancestor.get(10, TimeUnit.SECONDS).orElseThrow().release();
        otherClient.close();
    }
}
