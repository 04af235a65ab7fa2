package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.tck.net.FreePorts;
import io.distlock.tck.net.TcpProxy;
import io.distlock.test.redis.TestRedis;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

/** What the Redis implementation adds to the contract: its keys, scripts, notifications and failure handling. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLockTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "redis-test:" + UUID.randomUUID();

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
    void aRenewedHoldIsRenewedUntilTheMaxHoldAndReportedLostOnceItsLeaseRanOut() throws Exception {
        RedisLock holder = clients.lock(
                builder -> builder.watchdogLease(Duration.ofSeconds(3)).maxHold(Duration.ofSeconds(5)));
        long start = System.nanoTime();
        LockHandle held = holder.tryAcquire(key, Lease.renewed()).orElseThrow();
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        held.onLost(lost::complete);

        LockLostException reported = lost.get(30, TimeUnit.SECONDS);

        assertThat(reported.reason()).isEqualTo(Reason.MAX_HOLD_REACHED);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("renewed past its 3 s watchdog lease, up to the maximum hold")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(5));
        assertThat(held.isLost()).isTrue();
        RedisLock other = clients.lock();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> other.tryAcquire(key, Lease.fixed(LONG)).isPresent());
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLock.builder(clients.template())
                        .watchdogLease(Duration.ofSeconds(1))
                        .maxHold(Duration.ofSeconds(1))
                        .build())
                .withMessageContaining("max hold must be longer than the watchdog lease");
    }

    @Test
    void lockAndFencingCounterShareOneHashTagSlot() {
        RedisLock lock = clients.lock();
        LockHandle held =
                lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(10))).orElseThrow();

        String lockKey = "{distlock:" + key + "}";
        assertThat(redis.command("GET", lockKey)).startsWith(held.ownerToken() + "#");
        assertThat(Long.parseLong(redis.command("PTTL", lockKey))).isBetween(9_000L, 10_000L);
        assertThat(redis.command("GET", lockKey + ":fence")).isEqualTo(Long.toString(held.fencingToken()));
        assertThat(SlotHash.getSlot(lockKey + ":fence")).isEqualTo(SlotHash.getSlot(lockKey));

        held.release();
        assertThat(redis.command("EXISTS", lockKey)).isEqualTo("0");
        assertThat(redis.command("EXISTS", lockKey + ":fence")).isEqualTo("1");
    }

    @Test
    void oddKeysAreDistinctValuesInTheSameSlotAsTheirCounter() {
        RedisLock lock = clients.lock();
        List<String> odd = List.of(
                "}" + key,
                key + "}",
                "{" + key,
                key + "{x}",
                key + " with spaces",
                key + ":ünïcødé:锁",
                key + "*",
                key + "\nnewline",
                key + "?[a]");
        List<LockHandle> held = new ArrayList<>();
        for (String name : odd) {
            held.add(lock.tryAcquire(name, Lease.fixed(LONG)).orElseThrow());
            String lockKey = "{distlock:" + name + "}";
            assertThat(redis.command("EXISTS", lockKey)).as(name).isEqualTo("1");
            assertThat(SlotHash.getSlot(lockKey.getBytes(StandardCharsets.UTF_8)))
                    .as(name)
                    .isEqualTo(SlotHash.getSlot((lockKey + ":fence").getBytes(StandardCharsets.UTF_8)));
        }
        RedisLock other = clients.lock();
        for (String name : odd) {
            assertThat(other.tryAcquire(name, Lease.fixed(LONG))).as(name).isEmpty();
        }
        held.forEach(LockHandle::release);
    }

    @Test
    void scriptsAreLoadedAgainAfterRedisForgetsThem() {
        RedisLock lock = clients.lock();
        lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow().release();

        redis.command("SCRIPT", "FLUSH");

        lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow().release();
    }

    @Test
    void scriptErrorIsABackendFailureCarryingSpringsTranslatedException() {
        RedisLock lock = clients.lock();
        String lockKey = "{distlock:" + key + "}";
        redis.command("SET", lockKey + ":fence", "not-a-number");

        assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LONG)))
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("not an integer")
                .cause()
                .isInstanceOf(DataAccessException.class);
        // The script set the key before INCR failed; the failed attempt was given up with a release.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> redis.command("EXISTS", lockKey).equals("0"));
    }

    @Test
    void unreachableRedisIsABackendFailureCarryingSpringsTranslatedException() throws Exception {
        try (RedisClients nowhere = new RedisClients("127.0.0.1", FreePorts.next(), null)) {
            RedisLock lock = nowhere.lock();

            assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LONG)))
                    .isInstanceOf(LockBackendException.class)
                    .cause()
                    .isInstanceOf(RedisConnectionFailureException.class);
        }
    }

    @Test
    void releasePublishesOnlyWhenSomeoneWaits() throws Exception {
        RedisLock lock = clients.lock();
        RedisLock waiter = clients.lock();
        long before = commandCalls("publish");
        lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow().release();
        assertThat(commandCalls("publish")).isEqualTo(before);

        LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        Future<LockHandle> waiting = threads.submit(() -> waiter.acquire(key, Lease.fixed(LONG)));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> redis.command("GET", "{distlock:" + key + "}").contains("+"));
        held.release();

        assertThat(waiting.get(5, TimeUnit.SECONDS).isHeld()).isTrue();
        assertThat(commandCalls("publish")).isEqualTo(before + 1);
    }

    @Test
    void allWaitersOfAnApplicationShareOneSubscription() throws Exception {
        ReleaseSubscription shared = new ReleaseSubscription(clients.connectionFactory());
        RedisLock first = clients.lock(builder -> builder.releaseSubscription(shared));
        RedisLock second = clients.lock(builder -> builder.releaseSubscription(shared));
        RedisLock holder = clients.lock();
        List<LockHandle> held = new ArrayList<>();
        List<Future<LockHandle>> waiting = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            held.add(holder.tryAcquire(key + i, Lease.fixed(LONG)).orElseThrow());
            String name = key + i;
            RedisLock client = i % 2 == 0 ? first : second;
            waiting.add(threads.submit(() -> client.acquire(name, Lease.fixed(LONG))));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> subscribers("distlock:released") == 1);
        Thread.sleep(200);

        assertThat(subscribers("distlock:released")).isEqualTo(1);
        held.forEach(LockHandle::release);
        for (Future<LockHandle> future : waiting) {
            assertThat(future.get(5, TimeUnit.SECONDS).isHeld()).isTrue();
        }
        shared.close();
    }

    @Test
    void releaseHandsTheKeyStraightToTheLongestWaitingThreadOfTheProcess() throws Exception {
        RedisLock lock = clients.lock();
        LockHandle first = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        List<Integer> order = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Future<Long>> waiting = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            int arrival = i;
            waiting.add(threads.submit(() -> {
                try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
                    order.add(arrival);
                    return held.fencingToken();
                }
            }));
            // Each waiter queues before the next one arrives.
            Thread.sleep(150);
        }
        long deletes = commandCalls("del");
        long publishes = commandCalls("publish");

        first.release();
        long previous = first.fencingToken();
        for (Future<Long> waiter : waiting) {
            long token = waiter.get(5, TimeUnit.SECONDS);
            assertThat(token).isGreaterThan(previous);
            previous = token;
        }

        assertThat(order).containsExactly(1, 2, 3);
        // Handed over three times without the key ever being deleted or announced; only the last release deletes it.
        assertThat(commandCalls("del") - deletes).isEqualTo(1);
        assertThat(commandCalls("publish")).isEqualTo(publishes);
    }

    @Test
    void waiterOfAnotherProcessIsNotStarvedByHandoversInsideOneProcess() throws Exception {
        RedisLock busy = clients.lock();
        RedisLock other = clients.lock();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        List<Future<?>> loops = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            loops.add(threads.submit(() -> {
                while (!stop.get()) {
                    try (LockHandle held = busy.acquire(key, Lease.fixed(LONG))) {
                        Thread.sleep(2);
                    }
                }
                return null;
            }));
        }
        Thread.sleep(300);

        long start = System.nanoTime();
        Optional<LockHandle> turn = other.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(5));

        assertThat(turn).isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        turn.get().release();
        stop.set(true);
        for (Future<?> loop : loops) {
            loop.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void waitersOfOneProcessDoNotHammerRedis() throws Exception {
        RedisLock holder = clients.lock();
        RedisLock waiters = clients.lock();
        LockHandle held =
                holder.tryAcquire(key, Lease.fixed(Duration.ofSeconds(1))).orElseThrow();
        long before = commandCalls("evalsha");
        List<Future<LockHandle>> waiting = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(threads.submit(() -> waiters.acquire(key, Lease.fixed(LONG))));
        }
        Thread.sleep(1500);

        // Each thread tries at most on arrival, when the lease runs out and once more; never a busy loop.
        assertThat(commandCalls("evalsha") - before).isLessThanOrEqualTo(8 * 3);
        assertThat(held.isLost()).isTrue();
        waiting.forEach(future -> future.cancel(true));
    }

    @Test
    void unreachableRedisGivesAClearErrorWithinTheCommandTimeout() {
        try (TestRedis doomed = TestRedis.start();
                RedisClients own = new RedisClients(doomed)) {
            RedisLock lock = own.lock();
            lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow().release();
            doomed.kill();

            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LONG)))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining(key)
                    .hasMessageContaining("acquire");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(RedisClients.COMMAND_TIMEOUT.plusSeconds(1));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void hungRedisEndsAWaitOnTimeWithAnError() throws Exception {
        try (TestRedis frozen = TestRedis.start();
                RedisClients own = new RedisClients(frozen)) {
            RedisLock lock = own.lock();
            lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow().release();
            frozen.pause();
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LONG), Duration.ofMillis(300)))
                        .isInstanceOf(LockBackendException.class)
                        .hasMessageContaining("did not answer")
                        .hasMessageContaining(key);
                // Promised: the 300 ms wait and 200 ms for the attempt on its way; a call that waited for the 2 s
                // command
                // timeout instead would fail this bound, which leaves a busy machine a second more.
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
            } finally {
                frozen.resume();
            }
            assertThat(lock.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(5)))
                    .isPresent();
        }
    }

    @Test
    void lockGrantedAfterTheCallerGaveUpIsReleasedAgain() throws Exception {
        try (TcpProxy slow = TcpProxy.start(redis.host(), redis.port());
                RedisClients viaProxy = new RedisClients("127.0.0.1", slow.port(), null)) {
            RedisLock lock = viaProxy.lock();
            lock.tryAcquire(key + ":warm-up", Lease.fixed(LONG)).orElseThrow().release();
            slow.latency(Duration.ofMillis(400));

            assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LONG), Duration.ofMillis(100)))
                    .isInstanceOf(LockBackendException.class);

            // The acquire reached Redis after the caller gave up; the answer triggers a release.
            await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> redis.command("GET", "{distlock:" + key + "}:fence") != null
                            && redis.command("EXISTS", "{distlock:" + key + "}").equals("0"));
        }
    }

    @Test
    void renewedLeaseOutlivesItsWatchdogLeaseAndStopsAtRelease() throws Exception {
        // A watchdog lease of seconds, held for more than two: renewals outlive it on a busy machine, whose scheduling
        // has been seen to stall a renewal for about a second.
        RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(1500)));
        RedisLock other = clients.lock();
        LockHandle held = lock.tryAcquire(key).orElseThrow();

        long end = System.nanoTime() + Duration.ofMillis(3500).toNanos();
        while (System.nanoTime() < end) {
            assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
            Thread.sleep(100);
        }
        assertThat(held.isLost()).isFalse();
        held.release();

        assertThat(redis.command("EXISTS", "{distlock:" + key + "}")).isEqualTo("0");
        Thread.sleep(1000);
        assertThat(redis.command("EXISTS", "{distlock:" + key + "}")).isEqualTo("0");
    }

    @Test
    void renewalThatFindsAnotherOwnerMarksTheHoldLost() throws Exception {
        RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(600)));
        LockHandle held = lock.tryAcquire(key).orElseThrow();
        AtomicReference<LockLostException> reported = new AtomicReference<>();
        held.onLost(reported::set);

        redis.command("SET", "{distlock:" + key + "}", "someone-else", "PX", "60000");

        await().atMost(Duration.ofSeconds(3))
                .untilAsserted(() -> assertThat(reported.get())
                        .isNotNull()
                        .extracting(LockLostException::reason)
                        .isEqualTo(Reason.OWNED_BY_OTHER));
        assertThat(held.isLost()).isTrue();
        assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
        assertThat(redis.command("GET", "{distlock:" + key + "}")).isEqualTo("someone-else");
    }

    @Test
    void renewalThatFindsTheKeyGoneMarksTheHoldLost() {
        RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(600)));
        LockHandle held = lock.tryAcquire(key).orElseThrow();

        redis.command("DEL", "{distlock:" + key + "}");

        await().atMost(Duration.ofSeconds(3)).until(held::isLost);
        assertThatThrownBy(held::release)
                .isInstanceOf(LockLostException.class)
                .satisfies(e -> assertThat(((LockLostException) e).reason()).isEqualTo(Reason.KEY_GONE));
    }

    @Test
    void holdIsLostNoLaterThanItsLeaseWhenRedisStopsAnswering() throws Exception {
        try (TestRedis frozen = TestRedis.start();
                RedisClients own = new RedisClients(frozen)) {
            RedisLock lock = own.lock(builder -> builder.watchdogLease(Duration.ofMillis(900)));
            LockHandle held = lock.tryAcquire(key).orElseThrow();
            AtomicReference<LockLostException> reported = new AtomicReference<>();
            held.onLost(reported::set);
            Thread.sleep(350);
            long lastGoodRenewal = System.nanoTime();
            frozen.pause();
            try {
                await().atMost(Duration.ofSeconds(3)).until(() -> reported.get() != null);
                long detected = System.nanoTime();
                assertThat(Duration.ofNanos(detected - lastGoodRenewal)).isLessThan(Duration.ofMillis(900 + 200));
                assertThat(reported.get().reason()).isEqualTo(Reason.RENEWAL_FAILED);
            } finally {
                frozen.resume();
            }
        }
    }

    @Test
    void holdIsLostNoLaterThanItsLeaseWhenTheNetworkStopsForwarding() throws Exception {
        try (TcpProxy network = TcpProxy.start(redis.host(), redis.port());
                RedisClients viaProxy = new RedisClients("127.0.0.1", network.port(), null)) {
            RedisLock lock = viaProxy.lock(builder -> builder.watchdogLease(Duration.ofMillis(900)));
            LockHandle held = lock.tryAcquire(key).orElseThrow();
            AtomicReference<LockLostException> reported = new AtomicReference<>();
            held.onLost(reported::set);
            Thread.sleep(350);
            long lastGoodRenewal = System.nanoTime();
            network.pause();
            try {
                await().atMost(Duration.ofSeconds(3)).until(() -> reported.get() != null);
                assertThat(Duration.ofNanos(System.nanoTime() - lastGoodRenewal))
                        .isLessThan(Duration.ofMillis(900 + 200));
                assertThat(reported.get().reason()).isEqualTo(Reason.RENEWAL_FAILED);
                assertThat(held.isLost()).isTrue();
            } finally {
                network.resume();
            }
            assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
        }
    }

    @Test
    void closedLockRefusesNewAcquisitionsButReleasesWhatItHeld() {
        RedisLock lock = clients.lock();
        LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();

        lock.close();

        assertThatThrownBy(() -> lock.tryAcquire(key + ":new", Lease.fixed(LONG)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        // No shutdown grace period: the hold was reported lost at close, and releasing it still frees the key.
        assertThat(held.isLost()).isTrue();
        assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
        assertThat(redis.command("EXISTS", "{distlock:" + key + "}")).isEqualTo("0");
    }

    @Test
    void settingsOutOfRangeAreRejectedWithTheirName() {
        var factory = clients.connectionFactory();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLock.builder(factory).keyPrefix("").build())
                .withMessageContaining("key prefix");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLock.builder(factory).keyPrefix("a{b").build())
                .withMessageContaining("key prefix");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLock.builder(factory)
                        .watchdogLease(Duration.ofMillis(10))
                        .build())
                .withMessageContaining("watchdog lease");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLock.builder(factory)
                        .watchdogLease(Duration.ofSeconds(3))
                        .renewInterval(Duration.ofSeconds(3))
                        .build())
                .withMessageContaining("renew interval");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLock.builder((RedisConnectionFactory) null))
                .withMessageContaining("LettuceConnectionFactory");
        RedisTemplate<String, Object> jdkKeys = new RedisTemplate<>();
        jdkKeys.setConnectionFactory(factory);
        jdkKeys.afterPropertiesSet();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLock.builder(jdkKeys))
                .withMessageContaining("plain UTF-8 text")
                .withMessageContaining("JdkSerializationRedisSerializer");
    }

    private long commandCalls(String command) {
        Matcher matcher =
                Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(redis.command("INFO", "commandstats"));
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    private long subscribers(String channel) {
        String[] reply = redis.command("PUBSUB", "NUMSUB", channel).split("\n");
        return Long.parseLong(reply[1]);
    }
}
