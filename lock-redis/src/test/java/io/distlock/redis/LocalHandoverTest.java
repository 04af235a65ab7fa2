package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Local handover ({@link RedisLockBuilder#localHandoverWindow}): a release hands the key to a waiting thread of the
 * same instance without Redis, inside the run that a grant to a waiting thread started. The fencing counter tells a
 * local handover from one through Redis: each grant through Redis reserves {@value #FENCES} tokens, so the counter
 * moves only at grants.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalHandoverTest {

    private static final int FENCES = 64;
    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Duration WINDOW = Duration.ofSeconds(1);

    private final TestRedis redis = TestRedis.shared();
    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "local-handover:" + UUID.randomUUID();

    @AfterEach
    void cleanUp() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void waitersOfTheInstanceTakeTheRunsNextTokensWithoutAGrantInRedis() throws Exception {
        RedisLock lock = handingOverLocally(WINDOW);
        LockHandle first = heldInARun(lock, Lease.fixed(LONG));
        List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
        List<Future<?>> waiters = new ArrayList<>();
        for (int waiter = 1; waiter <= 3; waiter++) {
            waiters.add(threads.submit(() -> {
                try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
                    tokens.add(held.fencingToken());
                }
                return null;
            }));
            int queued = waiter;
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> lock.waitingThreads().containsValue(queued));
        }

        first.release();
        for (Future<?> waiter : waiters) {
            waiter.get(20, TimeUnit.SECONDS);
        }

        long granted = first.fencingToken();
        assertThat(tokens).containsExactly(granted + 1, granted + 2, granted + 3);
        assertThat(counter()).as("the counter, set by the run's grant in Redis").isEqualTo(granted + FENCES - 1);
    }

    /** The key of a caller that found nobody waiting is kept for its lease alone; a run's for the window too. */
    @Test
    void onlyARunKeepsItsKeyInRedisForTheWindowBesideTheLease() throws Exception {
        RedisLock lock = handingOverLocally(Duration.ofSeconds(5));
        try (LockHandle alone = lock.acquire(key, Lease.fixed(Duration.ofSeconds(1)))) {
            assertThat(pttl()).isBetween(1L, 1000L);
        }
        try (LockHandle inARun = heldInARun(lock, Lease.fixed(Duration.ofSeconds(1)))) {
            assertThat(pttl()).isBetween(1001L, 6000L);
        }
    }

    /** Two instances, as two processes: tokens rise in the order the sections ran, across runs and instances. */
    @Test
    void fencingTokensRiseStrictlyAcrossRunsAndInstances() throws Exception {
        List<RedisLock> instances = List.of(handingOverLocally(WINDOW), handingOverLocally(WINDOW));
        List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int threadsPerInstance = 3;
        int rounds = 40;
        List<Future<?>> workers = new ArrayList<>();
        for (RedisLock lock : instances) {
            for (int thread = 0; thread < threadsPerInstance; thread++) {
                workers.add(threads.submit(() -> {
                    for (int round = 0; round < rounds; round++) {
                        try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            tokens.add(held.fencingToken());
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
        }
        for (Future<?> worker : workers) {
            worker.get(40, TimeUnit.SECONDS);
        }

        int acquisitions = instances.size() * threadsPerInstance * rounds;
        assertThat(overlaps).hasValue(0);
        assertThat(tokens)
                .hasSize(acquisitions)
                .isSortedAccordingTo(Long::compare)
                .doesNotHaveDuplicates();
        assertThat(counter() / FENCES)
                .as("grants through Redis, each of which reserved %d tokens", FENCES)
                .isLessThan(acquisitions);
    }

    /**
     * The key disappears while its run goes on: the release that handed it over learns it from the run's confirmation,
     * and so does the receiver.
     */
    @Test
    void aKeyLostDuringARunIsReportedToEveryHolderWhoseSectionItCovered() throws Exception {
        RedisLock lock = handingOverLocally(WINDOW);
        LockHandle first = heldInARun(lock, Lease.fixed(LONG));
        Future<LockHandle> second = threads.submit(() -> lock.acquire(key, Lease.fixed(LONG)));
        await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingThreads().containsValue(1));

        redis.command("DEL", lockKey());

        assertThatThrownBy(first::release).isInstanceOf(LockLostException.class);
        LockHandle received = second.get(10, TimeUnit.SECONDS);
        assertThat(received.fencingToken()).isEqualTo(first.fencingToken() + 1);
        assertThatThrownBy(received::release).isInstanceOf(LockLostException.class);
    }

    /**
     * The confirmation's script unknown to Redis, as after a restart, while the release's is known: a confirmation sent
     * by SHA comes back with NOSCRIPT and goes again by text, after the release that ended its run, and then finds the
     * key gone. That release found the key owned, which covers the section too.
     */
    @Test
    void aConfirmationOvertakenByTheReleaseThatEndedItsRunStillCoversTheSection() throws Exception {
        try (TestRedis own = TestRedis.start();
                RedisClients ownClients = new RedisClients(own)) {
            RedisLock lock = ownClients.lock(settings -> settings.localHandoverWindow(WINDOW));
            for (int round = 0; round < 20; round++) {
                LockHandle first = receivedAfterRelease(lock, lock.acquire(key, Lease.fixed(LONG)), Lease.fixed(LONG));
                Future<?> second = threads.submit(() -> {
                    lock.acquire(key, Lease.fixed(LONG)).release();
                    return null;
                });
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> lock.waitingThreads().containsValue(1));
                own.command("SCRIPT", "FLUSH");
                // Redis knows the release script again, not the confirmation's.
                lock.acquire(key + ":other", Lease.fixed(LONG)).release();

                first.release();
                second.get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aWaiterWhoseWholeLeaseTheRunDoesNotCoverGetsTheKeyThroughRedis() throws Exception {
        RedisLock lock = handingOverLocally(Duration.ofMillis(50));
        LockHandle first = heldInARun(lock, Lease.fixed(Duration.ofSeconds(1)));

        LockHandle received = receivedAfterRelease(lock, first, Lease.fixed(LONG));

        assertThat(received.fencingToken()).isEqualTo(first.fencingToken() + FENCES);
        received.release();
    }

    @Test
    void aHoldWithARenewedLeaseHandsOverThroughRedis() throws Exception {
        RedisLock lock = handingOverLocally(WINDOW);
        LockHandle first = heldInARun(lock, Lease.renewed());

        LockHandle received = receivedAfterRelease(lock, first, Lease.fixed(Duration.ofSeconds(1)));

        assertThat(received.fencingToken()).isEqualTo(first.fencingToken() + FENCES);
        received.release();
    }

    @Test
    void anExtendedHoldHandsOverThroughRedis() throws Exception {
        RedisLock lock = handingOverLocally(WINDOW);
        LockHandle first = heldInARun(lock, Lease.fixed(LONG));
        first.extend(LONG);

        LockHandle received = receivedAfterRelease(lock, first, Lease.fixed(Duration.ofSeconds(1)));

        assertThat(received.fencingToken()).isEqualTo(first.fencingToken() + FENCES);
        received.release();
    }

    /** The window keeps the key in Redis after the lease, but the holder's own lease still ends on time. */
    @Test
    void aSectionThatOutlivesItsLeaseIsReportedLostThoughTheWindowStillKeepsTheKey() throws Exception {
        RedisLock lock = handingOverLocally(Duration.ofSeconds(5));
        LockHandle first = heldInARun(lock, Lease.fixed(Duration.ofMillis(200)));
        Future<LockHandle> second = threads.submit(() -> lock.acquire(key, Lease.fixed(LONG)));
        await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingThreads().containsValue(1));
        await().atMost(Duration.ofSeconds(10)).until(first::isLost);

        assertThatThrownBy(first::release).isInstanceOf(LockLostException.class);
        LockHandle received = second.get(10, TimeUnit.SECONDS);
        assertThat(received.fencingToken()).isEqualTo(first.fencingToken() + FENCES);
        received.release();
    }

    @Test
    void aWindowOutOfRangeIsRefusedNamingTheRange() {
        RedisLockBuilder builder = RedisLock.builder(clients.connectionFactory());

        assertThatIllegalArgumentException()
                .isThrownBy(() -> builder.localHandoverWindow(Duration.ZERO))
                .withMessageContaining("from 1 ms to 1 min")
                .withMessageContaining("PT0S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> builder.localHandoverWindow(Duration.ofMinutes(2)))
                .withMessageContaining("from 1 ms to 1 min");
    }

    @Test
    void localHandoverIsRefusedBesideReplicaAcknowledgements() {
        RedisLockBuilder builder = RedisLock.builder(clients.connectionFactory())
                .localHandoverWindow(WINDOW)
                .replicaAcknowledgements(1, Duration.ofMillis(100));

        assertThatIllegalArgumentException()
                .isThrownBy(builder::build)
                .withMessageContaining("local handover")
                .withMessageContaining("replica acknowledgements");
    }

    @Test
    void localHandoverIsRefusedOnAConnectionPool() {
        RedisLockBuilder builder = RedisLock.builder(clients.pooledConnectionFactory(4, Duration.ofSeconds(2)))
                .localHandoverWindow(WINDOW);

        assertThatIllegalArgumentException()
                .isThrownBy(builder::build)
                .withMessageContaining("shareNativeConnection=true");
    }

    /**
     * A hold that starts a run: taken by a thread that waited behind another of this instance, which handed it the key
     * through Redis.
     */
    private LockHandle heldInARun(RedisLock lock, Lease lease) throws Exception {
        return receivedAfterRelease(lock, lock.acquire(key, Lease.fixed(LONG)), lease);
    }

    /** Releases {@code held} once a thread waits for its key with {@code lease}, and returns what that thread got. */
    private LockHandle receivedAfterRelease(RedisLock lock, LockHandle held, Lease lease) throws Exception {
        Future<LockHandle> waiter = threads.submit(() -> lock.acquire(key, lease));
        await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingThreads().containsValue(1));
        held.release();
        return waiter.get(10, TimeUnit.SECONDS);
    }

    private RedisLock handingOverLocally(Duration window) {
        return clients.lock(settings -> settings.localHandoverWindow(window));
    }

    private long counter() {
        return Long.parseLong(redis.command("GET", "{distlock:" + key + "}:fence"));
    }

    private long pttl() {
        return Long.parseLong(redis.command("PTTL", lockKey()));
    }

    private String lockKey() {
        return "{distlock:" + key + "}";
    }
}
