package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fencing counters that expire ({@link RedisLockBuilder#deleteCountersUnusedFor(Duration)}): a key whose counter is
 * gone comes back with a larger token than before, on every kind that grants, because the tokens come from Redis's
 * clock; counters kept for ever and counted from 1 would start again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FencingCounterExpiryTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    /** Every token taken from Redis's clock is larger: it is 2001-09-09 in microseconds. */
    private static final long CLOCK_TOKEN_FLOOR = 1_000_000_000_000_000L;

    private final TestRedis redis = TestRedis.shared();
    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "counter:" + UUID.randomUUID();

    @AfterEach
    void cleanUp() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void aKeyWhoseCounterExpiredComesBackWithALargerToken() throws Exception {
        RedisLock lock = expiring(Duration.ofSeconds(1));
        long first;
        try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
            first = held.fencingToken();
        }
        assertThat(Long.parseLong(redis.command("PTTL", counterOf(key)))).isBetween(1L, 1000L);

        await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(redis.command("EXISTS", counterOf(key))));
        try (LockHandle again = lock.acquire(key, Lease.fixed(LONG))) {
            assertThat(first).isGreaterThan(CLOCK_TOKEN_FLOOR);
            assertThat(again.fencingToken()).isGreaterThan(first);
        }
    }

    /** The counter gone before every grant, as if it expired at the worst time: the tokens still grow. */
    @Test
    void tokensKeepGrowingWhenTheCounterIsGoneBeforeEveryGrant() throws Exception {
        RedisLock lock = expiring(Duration.ofHours(1));
        List<Long> tokens = new ArrayList<>();
        for (int round = 0; round < 200; round++) {
            redis.command("DEL", counterOf(key));
            try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
                tokens.add(held.fencingToken());
            }
        }

        assertThat(tokens).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
    }

    /** The control: a counter kept for ever counts from 1, and starts again from 1 once it is gone. */
    @Test
    void countersCountedFromOneWouldStartAgainOnceGone() throws Exception {
        RedisLock lock = clients.lock();
        lock.acquire(key, Lease.fixed(LONG)).close();
        long second;
        try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
            second = held.fencingToken();
        }
        assertThat(redis.command("PTTL", counterOf(key))).isEqualTo("-1");

        redis.command("DEL", counterOf(key));
        try (LockHandle again = lock.acquire(key, Lease.fixed(LONG))) {
            assertThat(second).isEqualTo(2);
            assertThat(again.fencingToken()).isEqualTo(1);
        }
    }

    @Test
    void tokensCountedFromOneJumpToTheClockWhenCountersExpire() throws Exception {
        long counted;
        try (LockHandle held = clients.lock().acquire(key, Lease.fixed(LONG))) {
            counted = held.fencingToken();
        }
        try (LockHandle clocked = expiring(Duration.ofHours(1)).acquire(key, Lease.fixed(LONG))) {
            assertThat(counted).isEqualTo(1);
            assertThat(clocked.fencingToken()).isGreaterThan(CLOCK_TOKEN_FLOOR);
        }
    }

    @Test
    void everyKindThatGrantsTakesItsTokenFromTheClock() throws Exception {
        RedisLock lock = expiring(Duration.ofHours(1));
        try (LockHandle fair = lock.fair().acquire(key + ":fair", Lease.fixed(LONG));
                LockHandle reader = lock.reading().acquire(key + ":read", Lease.fixed(LONG));
                LockHandle path = lock.tree(key + ":tree").acquire("a/b", Lease.fixed(LONG));
                MultiLockHandle both = lock.acquireAll(List.of(key + ":x", key + ":y"), Lease.fixed(LONG))) {
            assertThat(fair.fencingToken()).isGreaterThan(CLOCK_TOKEN_FLOOR);
            assertThat(reader.fencingToken()).isGreaterThan(CLOCK_TOKEN_FLOOR);
            assertThat(path.fencingToken()).isGreaterThan(CLOCK_TOKEN_FLOOR);
            assertThat(both.handles())
                    .allSatisfy(handle -> assertThat(handle.fencingToken()).isGreaterThan(CLOCK_TOKEN_FLOOR));
        }
        assertThat(Long.parseLong(redis.command("PTTL", counterOf(key + ":read"))))
                .isPositive();
    }

    /** A release handed straight to a waiter of the same instance gives it the next token from the clock too. */
    @Test
    void aHandoverToAWaiterOfTheSameInstanceTakesItsTokenFromTheClock() throws Exception {
        RedisLock lock = expiring(Duration.ofHours(1));
        LockHandle held = lock.acquire(key, Lease.fixed(LONG));
        Future<Optional<LockHandle>> waiter = threads.submit(() -> lock.tryAcquire(key, Lease.fixed(LONG), LONG));
        await().atMost(Duration.ofSeconds(20)).until(() -> lock.waitingCount() == 1);
        long first = held.fencingToken();
        held.close();

        try (LockHandle next = waiter.get(20, TimeUnit.SECONDS).orElseThrow()) {
            assertThat(first).isGreaterThan(CLOCK_TOKEN_FLOOR);
            assertThat(next.fencingToken()).isGreaterThan(first);
        }
    }

    @Test
    void aKeepTimeUnderOneSecondIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> clients.lock(settings -> settings.deleteCountersUnusedFor(Duration.ofMillis(999))))
                .withMessage("deleteCountersUnusedFor must be at least 1 s, or null to keep the counters, but was"
                        + " PT0.999S");
    }

    private RedisLock expiring(Duration unused) {
        return clients.lock(settings -> settings.deleteCountersUnusedFor(unused));
    }

    private static String counterOf(String key) {
        return "{distlock:" + key + "}:fence";
    }
}
