package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several keys of one Redis server taken in one script: one round trip, and a held key leaves the others untouched. A
 * server of its own, since the tests count the scripts it runs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeysAtOnceTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));
    private static final Pattern CALLS = Pattern.compile("cmdstat_(?:evalsha|eval):calls=(\\d+)");

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final String base = "at-once:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void freeKeysAreTakenInOneScriptEachWithItsOwnTokenLeaseAndFencingToken() throws Exception {
        RedisLock lock = clients.lock();
        List<String> keys = List.of(base + "c", base + "a", base + "b");
        lock.tryAcquire(base + "warm-up", LONG).orElseThrow().release();
        redis.command("CONFIG", "RESETSTAT");

        MultiLockHandle held = lock.tryAcquireAll(keys, LONG, Duration.ZERO).orElseThrow();

        assertThat(scriptsRun()).as("scripts run to take three keys").isEqualTo(1);
        assertThat(held.keys()).containsExactly(base + "a", base + "b", base + "c");
        for (LockHandle handle : held.handles()) {
            assertThat(redis.command("GET", redisKey(handle.key()))).startsWith(handle.ownerToken() + "#");
            assertThat(Long.parseLong(redis.command("PTTL", redisKey(handle.key()))))
                    .isBetween(25_000L, 30_000L);
            assertThat(handle.fencingToken()).isEqualTo(1);
        }
        assertThat(held.handles().stream().map(LockHandle::ownerToken)).doesNotHaveDuplicates();
        held.release();
        for (String key : keys) {
            assertThat(redis.command("EXISTS", redisKey(key))).isEqualTo("0");
        }
    }

    @Test
    void aHeldKeyLeavesTheOthersUntouchedAndIsNamed() throws Exception {
        RedisLock lock = clients.lock();
        LockHandle other = clients.lock().tryAcquire(base + "b", LONG).orElseThrow();
        redis.command("CONFIG", "RESETSTAT");

        assertThat(lock.tryAcquireAll(List.of(base + "a", base + "b", base + "c"), LONG, Duration.ZERO))
                .isEmpty();

        assertThat(scriptsRun()).as("scripts run").isEqualTo(1);
        assertThat(redis.command("EXISTS", RedisKeys.fenceKey(redisKey(base + "a"))))
                .as("the fencing counter of a key before the held one: never taken, so never counted")
                .isEqualTo("0");
        assertThatThrownBy(() -> lock.callWithLocks(List.of(base + "a", base + "b"), LONG, Duration.ZERO, () -> "ran"))
                .hasMessageContaining("'" + base + "b'");
        other.release();
    }

    @Test
    void aWaitingCallerTakesTheKeysOnceTheHeldOneIsReleased() throws Exception {
        RedisLock lock = clients.lock();
        LockHandle other = clients.lock().tryAcquire(base + "b", LONG).orElseThrow();
        CompletableFuture<Void> released = CompletableFuture.runAsync(
                other::release, CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));

        Optional<MultiLockHandle> held =
                lock.tryAcquireAll(List.of(base + "a", base + "b"), LONG, Duration.ofSeconds(10));

        assertThat(held).isPresent();
        assertThat(held.get().fencingToken(base + "b")).isGreaterThan(other.fencingToken());
        held.get().release();
        released.get(5, TimeUnit.SECONDS);
    }

    @Test
    void keysHeldByAScopeOfThisThreadReenterOneByOne() throws Exception {
        RedisLock lock = clients.lock();

        String result = lock.callWithLock(base + "a", LONG, Duration.ZERO, () -> {
            LockHandle outer = LockContext.current(base + "a").orElseThrow();
            MultiLockHandle both = lock.tryAcquireAll(List.of(base + "a", base + "b"), LONG, Duration.ZERO)
                    .orElseThrow();
            assertThat(both.fencingToken(base + "a")).isEqualTo(outer.fencingToken());
            both.release();
            assertThat(outer.isHeld())
                    .as("the outer hold outlives the nested one")
                    .isTrue();
            return "ran";
        });

        assertThat(result).isEqualTo("ran");
    }

    @Test
    void anAttemptRedisDidNotAnswerInTimeIsGivenBackOnceRedisAnswers() throws Exception {
        RedisLock lock = clients.lock();
        lock.tryAcquire(base + "warm-up", LONG).orElseThrow().release();
        List<String> keys = List.of(base + "a", base + "b");

        redis.pause();
        try {
            assertThatThrownBy(() -> lock.tryAcquireAll(keys, LONG, Duration.ZERO))
                    .isInstanceOf(LockBackendException.class);
        } finally {
            redis.resume();
        }

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(redis.command("EXISTS", redisKey(keys.get(0)), redisKey(keys.get(1))))
                        .isEqualTo("0"));
        assertThat(clients.lock().tryAcquireAll(keys, LONG, Duration.ZERO)).isPresent();
    }

    private static long scriptsRun() {
        Matcher calls = CALLS.matcher(redis.command("INFO", "commandstats"));
        long total = 0;
        while (calls.find()) {
            total += Long.parseLong(calls.group(1));
        }
        return total;
    }

    private static String redisKey(String key) {
        return "{distlock:" + key + "}";
    }
}
