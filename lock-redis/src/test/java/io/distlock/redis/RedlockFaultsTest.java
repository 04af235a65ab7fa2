package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Redlock over five real Redis servers while some of them are down or frozen: a majority keeps it working, a minority
 * makes it fail clearly, and no call waits past its wait. Servers that a test kills or pauses are restored after it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedlockFaultsTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));
    /** The slack a waiting call may take past its wait for an attempt on its way (see {@link io.distlock.Lock}). */
    private static final Duration ANSWER_SLACK = Duration.ofMillis(200);

    private static List<TestRedis> servers;

    private final RedlockClients clients = new RedlockClients(servers);
    private final String key = "redlock-faults:" + UUID.randomUUID();

    @BeforeAll
    static void startServers() {
        servers = RedlockClients.startServers(5);
    }

    @AfterAll
    static void stopServers() {
        servers.forEach(TestRedis::close);
    }

    @AfterEach
    void restoreServers() throws Exception {
        clients.close();
        RedlockClients.restartThoseDown(servers);
    }

    @Test
    void twoOfFiveNodesDownStillAcquireExcludeAndRelease() throws Exception {
        servers.get(0).kill();
        servers.get(1).kill();
        Redlock first = clients.lock();
        Redlock second = clients.lock();

        LockHandle held = first.tryAcquire(key, LONG, Duration.ofSeconds(5)).orElseThrow();

        assertThat(second.tryAcquire(key, LONG)).isEmpty();
        assertThat(held.isHeld()).isTrue();
        held.release();
        assertThat(second.tryAcquire(key, LONG, Duration.ofSeconds(5))).isPresent();
    }

    @Test
    void threeOfFiveNodesDownFailSayingHowManyAnsweredWithinTheWait() throws Exception {
        servers.get(0).kill();
        servers.get(1).kill();
        servers.get(2).kill();
        Redlock lock = clients.lock();
        Duration wait = Duration.ofMillis(500);

        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.tryAcquire(key, LONG, wait))
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("of 5 Redis nodes answered (3 failed")
                .hasMessageContaining("a majority of 3 is needed");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(wait.plus(ANSWER_SLACK).plusSeconds(1));
    }

    @Test
    void releaseWithAMajorityFrozenFailsClearlyAndTheLockIsFreedOnceTheyWake() throws Exception {
        Redlock lock = clients.lock();
        Redlock other = clients.lock();
        LockHandle held =
                lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5))).orElseThrow();
        List<TestRedis> frozen = servers.subList(2, 5);
        frozen.forEach(TestRedis::pause);
        try {
            assertThatThrownBy(held::release)
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("2 of 5 Redis nodes answered")
                    .hasMessageContaining("a majority of 3 is needed");
        } finally {
            frozen.forEach(TestRedis::resume);
        }

        // The woken nodes run the release they were sent; at the latest, the lease ends.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> other.tryAcquire(key, LONG).isPresent());
    }

    @Test
    void aFrozenNodeNeverHoldsUpACallPastItsWait() throws Exception {
        Redlock first = clients.lock();
        Redlock second = clients.lock();
        first.tryAcquire("warm-up:" + key, LONG).orElseThrow().release();
        second.tryAcquire("warm-up:" + key, LONG).orElseThrow().release();
        servers.get(4).pause();
        try {
            Duration wait = Duration.ofMillis(300);
            for (int i = 0; i < 20; i++) {
                long start = System.nanoTime();
                LockHandle held = first.tryAcquire(key, LONG, wait).orElseThrow();
                Optional<LockHandle> refused = second.tryAcquire(key, LONG, wait);
                held.release();

                assertThat(refused).isEmpty();
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .isLessThan(wait.multipliedBy(2).plus(ANSWER_SLACK.multipliedBy(2)));
            }
        } finally {
            servers.get(4).resume();
        }
    }

    @Test
    void aGrantSlowerThanItsLeaseDoesNotCountAndIsReleasedEverywhere() throws Exception {
        Redlock lock = clients.lock();
        lock.tryAcquire("warm-up:" + key, LONG).orElseThrow().release();
        Lease lease = Lease.fixed(Duration.ofSeconds(1));

        // Once the lease minus the drift allowance has passed, the vote ends without the silent majority.
        Object outcome = whileMajorityFrozenFor(Duration.ofMillis(1300), () -> {
            try {
                return lock.tryAcquire(key, lease);
            } catch (LockBackendException silentMajority) {
                return silentMajority;
            }
        });

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        LockBackendException.class,
                        failure -> assertThat(failure)
                                .hasMessageContaining("2 of 5 Redis nodes answered (0 failed, 3 still silent)"));
        // Granted on the frozen nodes when they woke up, with a second of lease left: released, not left to expire.
        await().atMost(Duration.ofMillis(500)).until(() -> servers.stream().noneMatch(server -> holds(server, key)));
    }

    @Test
    void aGrantWithinItsLeaseCountsDespiteTheSameDelay() throws Exception {
        Redlock lock = clients.lock();
        lock.tryAcquire("warm-up:" + key, LONG).orElseThrow().release();

        Optional<LockHandle> inTime = whileMajorityFrozenFor(Duration.ofMillis(1300), () -> lock.tryAcquire(key, LONG));

        assertThat(inTime).isPresent();
        assertThat(inTime.get().remainingLease()).isGreaterThan(Duration.ofSeconds(20));
        inTime.get().release();
    }

    /** Runs {@code call} while three of the five nodes are frozen, waking them after {@code frozen}. */
    private <T> T whileMajorityFrozenFor(Duration frozen, java.util.concurrent.Callable<T> call) throws Exception {
        List<TestRedis> frozenNodes = servers.subList(0, 3);
        frozenNodes.forEach(TestRedis::pause);
        try {
            CompletableFuture<T> result = CompletableFuture.supplyAsync(() -> {
                try {
                    return call.call();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(frozen.toMillis());
            frozenNodes.forEach(TestRedis::resume);
            return result.get(10, TimeUnit.SECONDS);
        } finally {
            frozenNodes.forEach(TestRedis::resume);
        }
    }

    private static boolean holds(TestRedis server, String key) {
        return !server.command("EXISTS", "{distlock:" + key + "}").equals("0");
    }
}
