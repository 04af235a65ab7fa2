package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisSentinel;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A primary that hangs instead of dying (a long pause, a partition): the Sentinels promote a replica, but a client
 * follows only if something tells it to. Records which Spring Data Redis client settings follow, how soon, and what
 * the stale primary grants when it comes back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLockSentinelFrozenPrimaryTest {

    private static final Delay RECONNECT_DELAY =
            Delay.exponential(Duration.ZERO, Duration.ofMillis(500), 2, TimeUnit.MILLISECONDS);
    private static final Duration FOLLOW_WAIT = Duration.ofSeconds(20);
    private static final Duration LONG = Duration.ofSeconds(30);

    private static TestRedisSentinel sentinel;

    private final SentinelClients plainClients = new SentinelClients(sentinel, RECONNECT_DELAY);
    private final SentinelClients followingClients = new SentinelClients(sentinel, RECONNECT_DELAY, ReadFrom.UPSTREAM);
    private final String key = "frozen-test:" + UUID.randomUUID() + ":";
    /** Numbers probe keys across calls, so that no probe finds an earlier probe's fencing counter. */
    private final AtomicInteger probes = new AtomicInteger();

    @BeforeAll
    static void startSentinel() {
        sentinel = TestRedisSentinel.start();
    }

    @AfterAll
    static void stopSentinel() {
        sentinel.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        plainClients.close();
        followingClients.close();
    }

    /**
     * Spring Data Redis's default Sentinel connection stays on the frozen primary: nothing breaks the TCP connection,
     * so it never asks the Sentinels again. Once that primary runs again, it still acts as one until the Sentinels
     * demote it (after it has been up for 8 s), and grants a lock that the new primary has already granted.
     */
    @Test
    void onlyAClientWithReadFromLeavesAFrozenPrimaryAndTheDefaultOneGrantsOnItWhenItComesBack() {
        RedisLock plain = plainClients.lock(settings -> settings);
        RedisLock following = followingClients.lock(settings -> settings);
        plain.tryAcquire(key + "warm-up-plain", Lease.fixed(LONG)).orElseThrow().release();
        following
                .tryAcquire(key + "warm-up-following", Lease.fixed(LONG))
                .orElseThrow()
                .release();
        TestRedis frozen = sentinel.primary();

        long freezeNanos = System.nanoTime();
        frozen.pause();
        LockHandle onPromoted;
        long followedAfter;
        try {
            TestRedis promoted = sentinel.awaitFailover(FOLLOW_WAIT);
            long promotedAfter = millisSince(freezeNanos);
            followedAfter = millisUntilAcquiredOn(following, promoted, freezeNanos);
            System.out.printf(
                    "sentinel frozen primary: promoted after %d ms; the read-from client acquires on the new primary"
                            + " after %d ms%n",
                    promotedAfter, followedAfter);

            assertThatThrownBy(() -> plain.tryAcquire(key + "while-frozen", Lease.fixed(LONG)))
                    .as("the default client, still connected to the frozen primary")
                    .isInstanceOf(LockBackendException.class);
            onPromoted =
                    following.tryAcquire(key + "contested", Lease.fixed(LONG)).orElseThrow();
        } finally {
            frozen.resume();
        }

        long resumeNanos = System.nanoTime();
        Optional<LockHandle> onStale = plain.tryAcquire(key + "contested", Lease.fixed(LONG));
        long plainFollowedAfterResume = millisUntilAcquiredOn(plain, sentinel.primary(), resumeNanos);
        System.out.printf(
                "sentinel frozen primary: once it runs again, the default client is granted a lock the new primary"
                        + " gave someone else: %b; it follows the new primary %d ms after the old one resumed%n",
                onStale.isPresent(), plainFollowedAfterResume);

        assertThat(onStale)
                .as("granted by the stale primary, whose writes the demotion throws away")
                .isPresent();
        assertThat(onPromoted.isHeld()).isTrue();
        assertThat(onStale.get().isHeld())
                .as("asked again once the client follows")
                .isFalse();
        onPromoted.release();
    }

    /**
     * The mitigation the README recommends: a primary that needs a replica in sync to accept writes ({@code
     * min-replicas-to-write 1}, {@code min-replicas-max-lag}) has none once it was frozen for longer than the lag, so it
     * refuses the contested grant instead of making a second holder.
     */
    @Test
    void primaryThatNeedsAReplicaInSyncRefusesTheContestedGrantWhenItComesBack() {
        for (TestRedis node : sentinel.nodes()) {
            node.command("CONFIG", "SET", "min-replicas-to-write", "1");
            node.command("CONFIG", "SET", "min-replicas-max-lag", "1");
        }
        try {
            RedisLock plain = plainClients.lock(settings -> settings);
            RedisLock following = followingClients.lock(settings -> settings);
            plain.tryAcquire(key + "warm-up-plain", Lease.fixed(LONG))
                    .orElseThrow()
                    .release();
            TestRedis frozen = sentinel.primary();

            long freezeNanos = System.nanoTime();
            frozen.pause();
            LockHandle onPromoted;
            try {
                TestRedis promoted = sentinel.awaitFailover(FOLLOW_WAIT);
                millisUntilAcquiredOn(following, promoted, freezeNanos);
                onPromoted = await().atMost(FOLLOW_WAIT)
                        .ignoreException(LockBackendException.class)
                        .until(() -> following.tryAcquire(key + "contested", Lease.fixed(LONG)), Optional::isPresent)
                        .orElseThrow();
            } finally {
                frozen.resume();
            }

            assertThatThrownBy(() -> plain.tryAcquire(key + "contested", Lease.fixed(LONG)))
                    .as("the stale primary, without a replica in sync")
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("NOREPLICAS");
            assertThat(onPromoted.isHeld()).isTrue();
            onPromoted.release();
        } finally {
            for (TestRedis node : sentinel.nodes()) {
                node.command("CONFIG", "SET", "min-replicas-to-write", "0");
            }
        }
    }

    /**
     * Acquires fresh keys until one lands on {@code primary}, and returns how long after {@code sinceNanos} that was.
     */
    private long millisUntilAcquiredOn(RedisLock lock, TestRedis primary, long sinceNanos) {
        await().atMost(FOLLOW_WAIT)
                .pollInterval(Duration.ofMillis(50))
                // A probe granted by a primary that is just being demoted can fail or vanish; the next one tells.
                .ignoreExceptionsMatching(e -> e instanceof LockBackendException || e instanceof LockLostException)
                .until(() -> {
                    String name = key + "probe-" + probes.incrementAndGet();
                    Optional<LockHandle> taken = lock.tryAcquire(name, Lease.fixed(LONG));
                    if (taken.isEmpty()) {
                        return false;
                    }
                    taken.get().release();
                    // Released at once, so only the fencing counter tells which server granted it.
                    return "1".equals(primary.command("EXISTS", "{distlock:" + name + "}:fence"));
                });
        return millisSince(sinceNanos);
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
