package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;
import io.distlock.monitor.KeyState;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every hold is stored with the instance name of its holder and the time it was taken, on Redis's clock, so that
 * another instance that asks how a key stands hears who holds it and since when; the owner token stays on the server.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HolderIdentityTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "holder:" + UUID.randomUUID();

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void anotherInstanceHearsWhoHoldsTheKeyAndSinceWhenOnRedissClock() throws Exception {
        RedisLock orders = clients.lock(settings -> settings.instanceName("orders@host-1"));
        RedisLock observer = clients.lock(settings -> settings.instanceName("admin@host-2"));

        Instant before = redisTime();
        try (LockHandle held = orders.acquire(key, Lease.fixed(LONG))) {
            Instant after = redisTime();
            KeyState state = observer.keyState(key);

            assertThat(state.held()).isTrue();
            assertThat(state.heldByThisInstance()).isFalse();
            assertThat(state.holder()).isEqualTo("orders@host-1");
            assertThat(state.heldSince()).isBetween(before, after);
            assertThat(state.toString()).doesNotContain(held.ownerToken());
        }

        KeyState free = observer.keyState(key);
        assertThat(free.held()).isFalse();
        assertThat(free.holder()).isNull();
        assertThat(free.heldSince()).isNull();
    }

    @Test
    void theHolderIsStillNamedAfterAnotherInstancesWaiterMarkedTheKey() throws Exception {
        RedisLock orders = clients.lock(settings -> settings.instanceName("orders@host-1"));
        RedisLock other = clients.lock(settings -> settings.instanceName("orders@host-2"));
        try (LockHandle held = orders.acquire(key, Lease.fixed(LONG))) {
            Instant since = orders.keyState(key).heldSince();
            Future<Optional<LockHandle>> waiter = threads.submit(() -> other.tryAcquire(key, Lease.fixed(LONG), LONG));
            await().atMost(Duration.ofSeconds(20)).until(() -> rawValue().contains("+"));

            assertThat(other.keyState(key).holder()).isEqualTo("orders@host-1");
            assertThat(other.keyState(key).heldSince()).isEqualTo(since);

            held.release();
            LockHandle next = waiter.get(20, TimeUnit.SECONDS).orElseThrow();
            assertThat(orders.keyState(key).holder()).isEqualTo("orders@host-2");
            next.release();
        }
    }

    @Test
    void aKeyHandedToAWaitingThreadNamesItsInstanceFromTheHandover() throws Exception {
        RedisLock orders = clients.lock(settings -> settings.instanceName("orders@host-1"));
        LockHandle first = orders.acquire(key, Lease.fixed(LONG));
        Instant firstSince = orders.keyState(key).heldSince();
        Future<Optional<LockHandle>> waiter = threads.submit(() -> orders.tryAcquire(key, Lease.fixed(LONG), LONG));
        await().atMost(Duration.ofSeconds(20)).until(() -> orders.waitingCount() == 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> rawValue().contains("+"));
        await().atMost(Duration.ofSeconds(5)).until(() -> redisTime().isAfter(firstSince));

        first.release();
        try (LockHandle second = waiter.get(20, TimeUnit.SECONDS).orElseThrow()) {
            KeyState state = clients.lock().keyState(key);
            assertThat(state.holder()).isEqualTo("orders@host-1");
            assertThat(state.heldSince()).isAfter(firstSince);
        }
    }

    @Test
    void fairAndMultiKeyHoldsNameTheirHolderAndReadersNameNone() throws Exception {
        RedisLock orders = clients.lock(settings -> settings.instanceName("orders@host-1"));
        RedisLock observer = clients.lock();

        try (LockHandle fair = orders.fair().acquire(key + ":fair", Lease.fixed(LONG))) {
            assertThat(observer.keyState(key + ":fair").holder()).isEqualTo("orders@host-1");
        }
        try (MultiLockHandle both = orders.tryAcquireAll(List.of(key + ":a", key + ":b"), Lease.fixed(LONG), LONG)
                .orElseThrow()) {
            assertThat(observer.keyState(key + ":a").holder()).isEqualTo("orders@host-1");
            assertThat(observer.keyState(key + ":b").holder()).isEqualTo("orders@host-1");
        }
        try (LockHandle reader = orders.reading().acquire(key + ":read", Lease.fixed(LONG))) {
            KeyState state = observer.keyState(key + ":read");
            assertThat(state.held()).isTrue();
            assertThat(state.holder()).isNull();
            assertThat(state.heldSince()).isNull();
        }
    }

    @Test
    void aFairKeyHandedToAQueuedWaiterOfAnotherInstanceNamesThatInstance() throws Exception {
        RedisLock first = clients.lock(settings -> settings.instanceName("first@host-1"));
        RedisLock second = clients.lock(settings -> settings.instanceName("second@host-2"));
        String fairKey = key + ":fair";
        LockHandle held = first.fair().acquire(fairKey, Lease.fixed(LONG));
        Future<LockHandle> waiter = threads.submit(() -> second.fair().acquire(fairKey, Lease.fixed(LONG)));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "1".equals(redis.command("ZCARD", "{distlock:" + fairKey + "}:queue")));

        held.release();
        try (LockHandle next = waiter.get(20, TimeUnit.SECONDS)) {
            assertThat(first.keyState(fairKey).holder()).isEqualTo("second@host-2");
        }
    }

    @Test
    void aKeyWrittenWithoutAHoldersNameIsHeldByNobodyNamed() {
        redis.command("SET", "{distlock:" + key + "}", "AAAAAAAAAAAAAAAAAAAAAA", "PX", "30000");

        KeyState state = clients.lock().keyState(key);

        assertThat(state.held()).isTrue();
        assertThat(state.holder()).isNull();
        assertThat(state.heldSince()).isNull();
    }

    @Test
    void aNameWithAMarkCharacterIsRefusedNamingWhatIsAllowed() {
        assertThatThrownBy(() -> RedisLock.builder(clients.connectionFactory())
                        .instanceName("orders+1")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instance name must be 1 to 100 printable characters")
                .hasMessageContaining("without '+' or '*'")
                .hasMessageContaining("\"orders+1\"");
    }

    private String rawValue() {
        String value = redis.command("GET", "{distlock:" + key + "}");
        return value == null ? "" : value;
    }

    private static Instant redisTime() {
        String[] time = redis.command("TIME").split("\n");
        return Instant.ofEpochSecond(Long.parseLong(time[0]), Long.parseLong(time[1]) / 1000 * 1000 * 1000)
                .truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }
}
