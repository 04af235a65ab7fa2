package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.redis.internal.scripts.LockScripts;
import io.distlock.redis.internal.waiting.KeyQueue;
import io.distlock.tck.net.TcpProxy;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The review's findings on lock-core (issue 10): handles that leave their thread, nested leases of another kind, late
 * grants, waits that must end on time, shutdown, and the handover bound across processes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLockSafetyTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "safety:" + UUID.randomUUID();

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
    void droppedHandleStopsBeingRenewedInsteadOfHoldingItsKeyForever() {
        RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofSeconds(2)));
        acquireAndDrop(lock, Lease.renewed());
        assertThat(redis.command("EXISTS", lockKey(key))).isEqualTo("1");

        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    System.gc();
                    return redis.command("EXISTS", lockKey(key)).equals("0");
                });
        assertThat(clients.lock().tryAcquire(key, LONG)).isPresent();
    }

    @Test
    void droppedHandleKeepsItsKeyUntilItsLeaseEnds() {
        RedisLock lock = clients.lock();
        acquireAndDrop(lock, Lease.fixed(Duration.ofSeconds(8)));

        // The work that asked for the lock may still run although nobody holds its handle: never free the key early.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> {
            System.gc();
            return redis.command("EXISTS", lockKey(key)).equals("1");
        });
        RedisLock other = clients.lock();
        assertThat(other.tryAcquire(key, LONG)).isEmpty();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> other.tryAcquire(key, LONG).isPresent());
    }

    private void acquireAndDrop(RedisLock lock, Lease lease) {
        lock.tryAcquire(key, lease).orElseThrow();
    }

    @Test
    void renewedLeaseNestedInAFixedOneIsRenewed() throws Exception {
        // A watchdog lease of seconds, held for more than two: renewals outlive it on a busy machine, whose scheduling
        // has been seen to stall a renewal for about a second.
        RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(1500)));
        LockHandle outer =
                lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(600))).orElseThrow();
        LockHandle nested;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            nested = lock.tryAcquire(key).orElseThrow();
        }

        Thread.sleep(3500);

        assertThat(nested.isLost()).as("renewed past the outer fixed lease").isFalse();
        assertThat(nested.isHeld()).isTrue();
        nested.release();
        outer.close();
        assertThat(redis.command("EXISTS", lockKey(key))).isEqualTo("0");
    }

    @Test
    void fixedLeaseNestedInARenewedOneIsNeitherShortenedByRenewalsNorRenewedOnceAlone() throws Exception {
        RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(600)));
        LockHandle outer = lock.tryAcquire(key).orElseThrow();
        LockHandle nested;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            nested = lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(2500))).orElseThrow();
        }
        Thread.sleep(700);
        assertThat(Long.parseLong(redis.command("PTTL", lockKey(key))))
                .as("renewals never cut the nested fixed lease short")
                .isGreaterThan(1000);

        outer.release();

        await().atMost(Duration.ofSeconds(5)).until(nested::isLost);
        // Not renewed behind the fixed lease's back: Redis expires the key with it.
        await().atMost(Duration.ofSeconds(1))
                .until(() -> redis.command("EXISTS", lockKey(key)).equals("0"));
        assertThatThrownBy(nested::release)
                .isInstanceOfSatisfying(
                        LockLostException.class,
                        lost -> assertThat(lost.reason()).isEqualTo(Reason.LEASE_EXPIRED));
    }

    @Test
    void lockGrantedAfterATryOnceTimedOutIsReleased() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
                RedisClients slow = new RedisClients("127.0.0.1", proxy.port(), redis.password())) {
            RedisLock lock = slow.lock();
            lock.tryAcquire(key + ":warm-up", LONG).orElseThrow().release();
            proxy.latency(Duration.ofMillis(1500));

            assertThatThrownBy(() -> lock.tryAcquire(key, LONG)).isInstanceOf(LockBackendException.class);

            assertThatGrantedThenFreed(key);
        }
    }

    @Test
    void lockGrantedAfterTheClientTimedOutAWaitingAttemptIsReleased() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
                RedisClients slow = new RedisClients("127.0.0.1", proxy.port(), redis.password())) {
            RedisLock lock = slow.lock();
            lock.tryAcquire(key + ":warm-up", LONG).orElseThrow().release();
            proxy.latency(Duration.ofMillis(1500));

            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofSeconds(5)))
                    .isInstanceOf(LockBackendException.class);

            assertThatGrantedThenFreed(key);
        }
    }

    @Test
    void lateGrantSentAgainAsTextAfterNoscriptIsReleasedThoughItsFirstReleaseRanBefore() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
                RedisClients slow = new RedisClients("127.0.0.1", proxy.port(), redis.password())) {
            RedisLock lock = slow.lock();
            lock.tryAcquire(key + ":warm-up", LONG).orElseThrow().release();
            // Redis knows the release but not the acquire: the abandoned attempt's release runs at once, and the
            // attempt, sent again as text after NOSCRIPT, is granted after it.
            redis.command("SCRIPT", "FLUSH");
            redis.command("SCRIPT", "LOAD", LockScripts.RELEASE.getScriptAsString());
            proxy.latency(Duration.ofMillis(400));

            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofMillis(100)))
                    .isInstanceOf(LockBackendException.class);

            assertThatGrantedThenFreed(key);
        }
    }

    @Test
    void lateGrantWithPoolingOnIsReleasedWithoutBlockingTheClientsIoThread() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
                RedisClients viaProxy = new RedisClients("127.0.0.1", proxy.port(), redis.password())) {
            RedisLock lock = RedisLock.builder(viaProxy.pooledConnectionFactory(1, RedisClients.COMMAND_TIMEOUT))
                    .shutdownGracePeriod(Duration.ZERO)
                    .build();
            try {
                lock.tryAcquire(key + ":warm-up", LONG).orElseThrow().release();
                proxy.latency(Duration.ofMillis(400));

                assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofMillis(100)))
                        .isInstanceOf(LockBackendException.class);

                assertThatGrantedThenFreed(key);
                proxy.latency(Duration.ZERO);
                // The client still works: its I/O thread never blocked on the pool.
                LockHandle after = CompletableFuture.supplyAsync(
                                () -> lock.tryAcquire(key + ":after", LONG).orElseThrow(), threads)
                        .get(5, TimeUnit.SECONDS);
                after.release();
            } finally {
                lock.close();
            }
        }
    }

    @Test
    void nestedAcquisitionEndsWithItsWaitWhenRedisStalls() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
                RedisClients slow = new RedisClients("127.0.0.1", proxy.port(), redis.password())) {
            RedisLock lock = slow.lock();
            LockHandle outer = lock.tryAcquire(key, LONG).orElseThrow();
            proxy.pause();
            try (LockContext.Scope scope = LockContext.enter(outer)) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofMillis(300)))
                        .isInstanceOf(LockBackendException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("the 2 s command timeout must not apply")
                        .isLessThan(Duration.ofMillis(1200));
            } finally {
                proxy.resume();
            }
            outer.release();
        }
    }

    @Test
    void firstConnectionEndsWithTheWaitWhenRedisDoesNotAnswer() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
                RedisClients slow = new RedisClients("127.0.0.1", proxy.port(), redis.password())) {
            RedisLock lock = slow.lock();
            proxy.pause();
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofMillis(300)))
                        .isInstanceOf(LockBackendException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("connecting must not outlast the wait")
                        .isLessThan(Duration.ofMillis(1200));
            } finally {
                proxy.resume();
            }
            await().atMost(Duration.ofSeconds(15))
                    .ignoreExceptions()
                    .until(() ->
                            lock.tryAcquire(key, LONG, Duration.ofSeconds(1)).isPresent());
        }
    }

    @Test
    void closeWakesWaitersAndKeepsRenewingHeldLocksUntilTheyAreReleased() throws Exception {
        RedisLock lock = clients.lock(
                builder -> builder.watchdogLease(Duration.ofMillis(900)).shutdownGracePeriod(Duration.ofSeconds(20)));
        RedisLock other = clients.lock();
        LockHandle held = lock.tryAcquire(key).orElseThrow();
        LockHandle blocking = other.tryAcquire(key + ":blocked", LONG).orElseThrow();
        Future<Optional<LockHandle>> waiter =
                threads.submit(() -> lock.tryAcquire(key + ":blocked", LONG, Duration.ofSeconds(20)));
        Thread.sleep(200);

        Future<?> closing = threads.submit(lock::close);

        assertThatThrownBy(() -> waiter.get(2, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        Thread.sleep(2000);
        assertThat(closing).isNotDone();
        assertThat(held.isLost()).as("renewed while the application shuts down").isFalse();
        assertThat(other.tryAcquire(key, LONG)).isEmpty();

        long released = System.nanoTime();
        held.release();
        closing.get(5, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(Duration.ofSeconds(2));
        blocking.release();
    }

    @Test
    void closeReportsLocksStillHeldAfterTheGracePeriodLostAndHandlesStayUsable() throws Exception {
        RedisLock lock = clients.lock(
                builder -> builder.watchdogLease(Duration.ofMillis(900)).shutdownGracePeriod(Duration.ofMillis(500)));
        LockHandle renewed = lock.tryAcquire(key).orElseThrow();
        LockHandle fixed = lock.tryAcquire(key + ":fixed", LONG).orElseThrow();
        AtomicReference<LockLostException> reported = new AtomicReference<>();
        renewed.onLost(reported::set);

        long start = System.nanoTime();
        lock.close();

        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isBetween(Duration.ofMillis(450), Duration.ofSeconds(3));
        await().atMost(Duration.ofSeconds(2)).until(() -> reported.get() != null);
        assertThat(reported.get().reason()).isEqualTo(Reason.CLIENT_CLOSED);
        assertThat(renewed.isLost()).isTrue();
        AtomicBoolean late = new AtomicBoolean();
        fixed.onLost(lost -> late.set(true));
        await().atMost(Duration.ofSeconds(2)).untilTrue(late);
        assertThatThrownBy(renewed::release).isInstanceOf(LockLostException.class);
        assertThatThrownBy(fixed::release).isInstanceOf(LockLostException.class);
        assertThat(redis.command("EXISTS", lockKey(key + ":fixed"))).isEqualTo("0");
    }

    @Test
    void anotherProcessGetsTheKeyAfterAtMostEightHandoversInsideOne() throws Exception {
        String prefix = "handover-" + UUID.randomUUID() + ":";
        RedisLock busy = clients.lock(builder -> builder.keyPrefix(prefix));
        RedisLock patient = clients.lock(builder -> builder.keyPrefix(prefix));
        // Both subscribed to release announcements before the measurement, as processes that have waited before are.
        patient.tryAcquire(key, LONG, Duration.ofSeconds(5)).orElseThrow().release();
        busy.tryAcquire(key, LONG, Duration.ofSeconds(5)).orElseThrow().release();
        await().atMost(Duration.ofSeconds(15))
                .until(() ->
                        redis.command("PUBSUB", "NUMSUB", prefix + "released").endsWith("\n2"));
        AtomicLong busyAcquisitions = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<?>> loops = new ArrayList<>();
        for (int thread = 0; thread < 4; thread++) {
            loops.add(threads.submit(() -> {
                while (!stop.get()) {
                    try (LockHandle held = busy.acquire(key, LONG)) {
                        busyAcquisitions.incrementAndGet();
                        Thread.sleep(1);
                    }
                }
                return null;
            }));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> busyAcquisitions.get() > 50);

        List<Long> othersInBetween = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            Future<LockHandle> waiting = threads.submit(
                    () -> patient.tryAcquire(key, LONG, Duration.ofSeconds(10)).orElseThrow());
            // Counted from when the waiter's attempt has marked the key as waited for elsewhere: the busy process
            // cannot know before, and how long the attempt takes to reach Redis depends on the machine's load.
            long before = await().pollInterval(Duration.ofMillis(2))
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () -> waiting.isDone() || waitedForElsewhere("{" + prefix + key + "}")
                                    ? busyAcquisitions.get()
                                    : -1,
                            counted -> counted >= 0);
            LockHandle turn = waiting.get(10, TimeUnit.SECONDS);
            othersInBetween.add(busyAcquisitions.get() - before);
            turn.release();
            long resumed = busyAcquisitions.get();
            await().atMost(Duration.ofSeconds(5)).until(() -> busyAcquisitions.get() > resumed + 20);
        }
        stop.set(true);
        for (Future<?> loop : loops) {
            loop.get(10, TimeUnit.SECONDS);
        }

        // From the mark on, at most 8 handovers, and a few acquisitions while the mark's news travels back.
        assertThat(othersInBetween)
                .as("acquisitions by the busy process while the other one waited")
                .allSatisfy(
                        count -> assertThat(count).isLessThanOrEqualTo(KeyQueue.MAX_HANDOVERS_WHILE_OTHERS_WAIT + 4));
    }

    private void assertThatGrantedThenFreed(String lockKeyName) {
        // The attempt reached Redis and was granted (its fencing counter moved), and the release that followed freed
        // it.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> redis.command("GET", lockKey(lockKeyName) + ":fence") != null);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> redis.command("EXISTS", lockKey(lockKeyName)).equals("0"));
        assertThat(clients.lock().tryAcquire(lockKeyName, LONG)).isPresent();
    }

    /** Whether the key's holder is marked as waited for by another instance ({@code +<instance>} or {@code *}). */
    private boolean waitedForElsewhere(String lockKey) {
        String holder = String.valueOf(redis.command("GET", lockKey));
        return holder.contains("+") || holder.endsWith("*");
    }

    private static String lockKey(String name) {
        return "{distlock:" + name + "}";
    }
}
