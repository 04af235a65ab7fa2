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
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a Sentinel failover does to a lock that only the old primary had granted. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLockSentinelLostWriteTest {

    private static final Delay RECONNECT_DELAY =
            Delay.exponential(Duration.ZERO, Duration.ofMillis(500), 2, TimeUnit.MILLISECONDS);
    private static final Duration FAILOVER_WAIT = Duration.ofSeconds(20);
    private static final Duration LONG = Duration.ofSeconds(30);
    /** Short, so that the holder learns of its loss soon after the failover. */
    private static final Duration WATCHDOG_LEASE = Duration.ofSeconds(3);

    private static TestRedisSentinel sentinel;

    private final SentinelClients clients = new SentinelClients(sentinel, RECONNECT_DELAY);
    private final String key = "lost-write-test:" + UUID.randomUUID() + ":";

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
        clients.close();
    }

    /**
     * Sentinel replicates asynchronously, so a grant that only the old primary saw is gone after the failover: the
     * fencing counter with it, so the new holder gets the same fencing token, as {@link LockHandle#fencingToken()}
     * warns. The replicas are frozen and cut off for a moment, so that the grant surely misses them.
     */
    @Test
    void aLockThatNeverReachedAReplicaIsGrantedAgainAfterAFailoverAndItsHolderLearnsItIsLost() throws Exception {
        RedisLock first = clients.lock(settings -> settings.watchdogLease(WATCHDOG_LEASE));
        RedisLock second = clients.lock(settings -> settings);
        first.tryAcquire(key + "warm-up-1", Lease.fixed(LONG)).orElseThrow().release();
        second.tryAcquire(key + "warm-up-2", Lease.fixed(LONG)).orElseThrow().release();
        AtomicReference<LockLostException> reportedLost = new AtomicReference<>();
        TestRedis primary = sentinel.primary();
        List<TestRedis> replicas = sentinel.replicas();

        LockHandle orphaned;
        long killNanos;
        replicas.forEach(TestRedis::pause);
        try {
            primary.command("CLIENT", "KILL", "TYPE", "replica");
            orphaned = first.tryAcquire(key + "split", Lease.renewed()).orElseThrow();
            orphaned.onLost(reportedLost::set);
            killNanos = System.nanoTime();
            sentinel.killPrimary();
        } finally {
            replicas.forEach(TestRedis::resume);
        }
        sentinel.awaitFailover(FAILOVER_WAIT);
        AtomicReference<LockHandle> again = new AtomicReference<>();
        await().atMost(FAILOVER_WAIT)
                .pollInterval(Duration.ofMillis(50))
                .ignoreException(LockBackendException.class)
                .until(() -> {
                    second.tryAcquire(key + "split", Lease.fixed(LONG)).ifPresent(again::set);
                    return again.get() != null;
                });
        long grantedAgainAfter = millisSince(killNanos);
        await().atMost(WATCHDOG_LEASE.plusSeconds(2)).until(() -> reportedLost.get() != null);

        System.out.printf(
                "sentinel failover lost write: granted again at +%d ms; the first holder was told at +%d ms (%s);"
                        + " fencing tokens %d and %d%n",
                grantedAgainAfter,
                millisSince(killNanos),
                reportedLost.get().getMessage(),
                orphaned.fencingToken(),
                again.get().fencingToken());
        assertThat(orphaned.isLost()).isTrue();
        assertThat(orphaned.isHeld()).isFalse();
        assertThat(again.get().isHeld()).isTrue();
        assertThat(again.get().fencingToken()).isEqualTo(orphaned.fencingToken());
        assertThatThrownBy(orphaned::release).isInstanceOf(LockLostException.class);
        assertThat(again.get().isHeld())
                .as("untouched by the lost holder's release")
                .isTrue();
        again.get().release();
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
