package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisSentinel;
import io.lettuce.core.resource.Delay;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * distlock on a Redis Sentinel deployment: the basics through the Sentinels, and what a failover does to holders and
 * waiters. One deployment serves the whole class; the failover test kills its primary, and the other tests work on
 * whichever primary the Sentinels name.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLockSentinelTest {

    /**
     * Every reconnect asks the Sentinels for the primary again, which is how a client follows a failover; how soon it
     * tries decides how soon it follows. Lettuce's default delay doubles after each failed attempt, up to 30 s, so a
     * connection can come back seconds after the promotion (here up to 3 s); capped at 500 ms, every connection of
     * every client follows within a few hundred milliseconds.
     */
    private static final Delay RECONNECT_DELAY =
            Delay.exponential(Duration.ZERO, Duration.ofMillis(500), 2, TimeUnit.MILLISECONDS);

    private static final Duration FAILOVER_WAIT = Duration.ofSeconds(20);
    private static final Duration LONG = Duration.ofSeconds(30);

    /** Short enough that an outage of a few seconds puts it at risk, as a real watchdog lease would be. */
    private static final Duration WATCHDOG_LEASE = Duration.ofSeconds(6);

    private static final Duration FIXED_LEASE = Duration.ofSeconds(20);
    private static final Duration WAITER_WAIT = Duration.ofSeconds(15);
    /** Shorter than any failover, so that the wait ends while no primary answers. */
    private static final Duration OUTAGE_WAIT = Duration.ofSeconds(1);
    /**
     * How much later than its wait a waiter may return: an attempt on its way when the wait ends is given up to the
     * command timeout, and a thread pool on a busy machine needs a moment more.
     */
    private static final Duration WAIT_MARGIN = SentinelClients.COMMAND_TIMEOUT.plusSeconds(1);

    private static TestRedisSentinel sentinel;

    private final SentinelClients clients = new SentinelClients(sentinel, RECONNECT_DELAY);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "sentinel-test:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void startSentinel() {
        sentinel = TestRedisSentinel.start();
    }

    @AfterAll
    static void stopSentinel() {
        sentinel.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void acquireExtendAndReleaseReachThePrimaryThroughTheSentinels() {
        RedisLock lock = clients.lock(settings -> settings);
        String lockKey = lockKey("basic");

        LockHandle held = lock.tryAcquire(key + "basic", Lease.fixed(Duration.ofSeconds(10)))
                .orElseThrow();
        TestRedis primary = sentinel.primary();
        assertThat(primary.command("GET", lockKey)).startsWith(held.ownerToken() + "#");
        assertThat(lock.tryAcquire(key + "basic", Lease.fixed(LONG))).isEmpty();

        held.extend(LONG);
        assertThat(Long.parseLong(primary.command("PTTL", lockKey))).isBetween(20_000L, 30_000L);

        held.release();
        assertThat(primary.command("EXISTS", lockKey)).isEqualTo("0");
        assertThat(held.isHeld()).isFalse();
    }

    @Test
    void theWatchdogKeepsRenewingThroughTheSentinels() {
        // A watchdog lease of seconds, held for more than two: renewals outlive it on a busy machine, whose scheduling
        // has been seen to stall a renewal for about a second.
        RedisLock lock = clients.lock(settings -> settings.watchdogLease(Duration.ofSeconds(2)));

        LockHandle held = lock.tryAcquire(key + "renewed", Lease.renewed()).orElseThrow();

        await().during(Duration.ofMillis(4500))
                .atMost(Duration.ofSeconds(7))
                .until(() -> !held.isLost() && held.remainingLease().toMillis() > 0);
        held.release();
    }

    @Test
    void aReleaseWakesAWaiterOfAnotherInstanceThroughTheSentinelsPubSub() throws Exception {
        RedisLock holder = clients.lock(settings -> settings);
        RedisLock waiter = clients.lock(settings -> settings);
        LockHandle held = holder.tryAcquire(key + "wake", Lease.fixed(LONG)).orElseThrow();
        Future<Optional<LockHandle>> waiting =
                threads.submit(() -> waiter.tryAcquire(key + "wake", Lease.fixed(LONG), LONG));
        awaitWaiterMark(lockKey("wake"));

        long releaseNanos = System.nanoTime();
        held.release();

        LockHandle taken = waiting.get(5, TimeUnit.SECONDS).orElseThrow();
        assertThat(millisSince(releaseNanos)).isLessThan(2000);
        assertThat(taken.fencingToken()).isGreaterThan(held.fencingToken());
        taken.release();
    }

    @Test
    void aFailoverBoundsEveryWaitAndLocksWorkAgainOnceAReplicaIsPromoted() throws Exception {
        RedisLock holders = clients.lock(settings -> settings.watchdogLease(WATCHDOG_LEASE));
        RedisLock waiters = clients.lock(settings -> settings);
        RedisLock probe = clients.lock(settings -> settings);
        RedisLock latecomer = clients.lock(settings -> settings);
        probe.tryAcquire(key + "warm-up-probe", Lease.fixed(LONG)).orElseThrow().release();
        latecomer
                .tryAcquire(key + "warm-up-latecomer", Lease.fixed(LONG))
                .orElseThrow()
                .release();
        List<String> names = List.of("renewed-1", "renewed-2", "fixed-1", "fixed-2");
        Map<String, LockHandle> held = new LinkedHashMap<>();
        Map<String, LockLostException> reportedLost = new ConcurrentHashMap<>();
        Map<String, Future<WaitOutcome>> waiting = new LinkedHashMap<>();
        for (String name : names) {
            Lease lease = name.startsWith("renewed") ? Lease.renewed() : Lease.fixed(FIXED_LEASE);
            LockHandle handle = holders.tryAcquire(key + name, lease).orElseThrow();
            handle.onLost(lost -> reportedLost.put(name, lost));
            held.put(name, handle);
            waiting.put(name, threads.submit(() -> WaitOutcome.of(waiters, key + name, WAITER_WAIT)));
            awaitWaiterMark(lockKey(name));
        }

        long killNanos = System.nanoTime();
        TestRedis former = sentinel.killPrimary();
        Future<WaitOutcome> duringOutage =
                threads.submit(() -> WaitOutcome.of(latecomer, key + "fixed-2", OUTAGE_WAIT));
        Future<Long> promotedAfter = threads.submit(() -> {
            sentinel.awaitFailover(FAILOVER_WAIT);
            return millisSince(killNanos);
        });
        long recoveredAfter = recoveryMillis(probe, killNanos);

        // Half the holders finish their work now; the waiters for those locks should get them.
        Map<String, String> released = new LinkedHashMap<>();
        for (String name : List.of("renewed-1", "fixed-1")) {
            released.put(name, releaseOutcome(held.get(name)) + " at +" + millisSince(killNanos) + " ms");
        }
        Map<String, WaitOutcome> outcomes = new LinkedHashMap<>();
        for (String name : names) {
            outcomes.put(
                    name, waiting.get(name).get(WAITER_WAIT.plus(WAIT_MARGIN).toSeconds(), TimeUnit.SECONDS));
        }
        WaitOutcome latecomerOutcome = duringOutage.get(WAITER_WAIT.toSeconds(), TimeUnit.SECONDS);
        Map<String, String> holds = new LinkedHashMap<>();
        held.forEach((name, handle) -> holds.put(name, released.getOrDefault(name, holdState(handle))));
        Set<String> lost = held.entrySet().stream()
                .filter(hold -> hold.getValue().isLost())
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());

        System.out.printf(
                "sentinel failover recovery: promoted after %d ms, distlock acquires again after %d ms%n",
                promotedAfter.get(), recoveredAfter);
        System.out.println("sentinel failover holds: " + holds + ", reported lost: " + reportedLost.keySet());
        Map<String, String> waits = new LinkedHashMap<>();
        outcomes.forEach((name, outcome) -> waits.put(name, outcome.describe(killNanos)));
        Map<String, String> owners = new LinkedHashMap<>();
        held.forEach((name, handle) -> owners.put(name, ownersOnEachNode(lockKey(name), handle, outcomes.get(name))));
        System.out.println("sentinel failover owners by node: " + owners);
        System.out.println("sentinel failover waiters: " + waits + "; fixed-2 asked during the outage with a "
                + OUTAGE_WAIT.toMillis() + " ms wait: " + latecomerOutcome.describe(killNanos));

        assertThat(sentinel.primary()).isNotSameAs(former);
        assertThat(outcomes.values())
                .allSatisfy(outcome -> assertThat(outcome.elapsedMillis())
                        .isLessThanOrEqualTo(WAITER_WAIT.plus(WAIT_MARGIN).toMillis()));
        assertThat(latecomerOutcome.elapsedMillis())
                .isLessThanOrEqualTo(OUTAGE_WAIT.plus(WAIT_MARGIN).toMillis());
        assertThat(latecomerOutcome.handle())
                .as("a lock whose holder still holds it")
                .isNull();
        await().atMost(Duration.ofSeconds(5)).until(() -> reportedLost.keySet().equals(lost));
        outcomes.values().forEach(WaitOutcome::releaseQuietly);
        held.values().forEach(RedisLockSentinelTest::releaseQuietly);
    }

    /** Tries fresh keys until one is acquired, and returns how long after {@code sinceNanos} that was. */
    private long recoveryMillis(RedisLock probe, long sinceNanos) {
        AtomicInteger attempt = new AtomicInteger();
        AtomicReference<LockHandle> acquired = new AtomicReference<>();
        await().atMost(FAILOVER_WAIT)
                .pollInterval(Duration.ofMillis(50))
                .ignoreException(LockBackendException.class)
                .until(() -> {
                    probe.tryAcquire(key + "probe-" + attempt.incrementAndGet(), Lease.fixed(LONG))
                            .ifPresent(acquired::set);
                    return acquired.get() != null;
                });
        long recovered = millisSince(sinceNanos);
        acquired.get().release();
        return recovered;
    }

    /** Who owns the key on each node that answers, to tell a failover that left two primaries from one that did not. */
    private static String ownersOnEachNode(String lockKey, LockHandle holder, WaitOutcome waiter) {
        StringBuilder owners = new StringBuilder();
        for (TestRedis node : sentinel.nodes()) {
            String owner;
            try {
                String role = node.command("ROLE").split("\n")[0];
                String value = node.command("GET", lockKey);
                owner = role + " says "
                        + (value == null
                                ? "free"
                                : value.startsWith(holder.ownerToken())
                                        ? "holder"
                                        : waiter.handle() != null
                                                        && value.startsWith(
                                                                waiter.handle().ownerToken())
                                                ? "waiter"
                                                : "someone else");
            } catch (UncheckedIOException dead) {
                owner = "down";
            }
            owners.append(node.port()).append(": ").append(owner).append("; ");
        }
        return owners.toString();
    }

    /** What the holder believes, and what Redis says when asked. */
    private static String holdState(LockHandle handle) {
        String believed = handle.isLost() ? "lost" : "not known to be lost";
        try {
            return believed + ", Redis says " + (handle.isHeld() ? "held" : "not held");
        } catch (LockBackendException e) {
            return believed + ", Redis cannot say (" + e.getMessage() + ")";
        }
    }

    private static String releaseOutcome(LockHandle handle) {
        try {
            handle.release();
            return "released";
        } catch (LockLostException e) {
            return "lost (" + e.getMessage() + ")";
        } catch (LockBackendException e) {
            return "release failed (" + e.getMessage() + ")";
        }
    }

    private static void releaseQuietly(LockHandle handle) {
        try {
            handle.close();
        } catch (LockLostException | LockBackendException e) {
            // The test has recorded what happened to this hold; cleaning up must not hide that.
        }
    }

    /** Waits until a waiter has marked the lock's value, so it is known to wait before the test goes on. */
    private void awaitWaiterMark(String lockKey) {
        TestRedis primary = sentinel.primary();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> String.valueOf(primary.command("GET", lockKey)).contains("+"));
    }

    private String lockKey(String name) {
        return "{distlock:" + key + name + "}";
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** How a bounded wait for a held lock ended, and after how long. */
    private record WaitOutcome(String result, long startNanos, long endNanos, LockHandle handle) {

        static WaitOutcome of(RedisLock lock, String key, Duration wait) throws InterruptedException {
            long startNanos = System.nanoTime();
            try {
                Optional<LockHandle> taken = lock.tryAcquire(key, Lease.fixed(LONG), wait);
                return new WaitOutcome(
                        taken.isPresent() ? "acquired" : "not acquired",
                        startNanos,
                        System.nanoTime(),
                        taken.orElse(null));
            } catch (LockBackendException e) {
                return new WaitOutcome("backend failure (" + e.getMessage() + ")", startNanos, System.nanoTime(), null);
            }
        }

        long elapsedMillis() {
            return TimeUnit.NANOSECONDS.toMillis(endNanos - startNanos);
        }

        String describe(long killNanos) {
            return result + " after waiting " + elapsedMillis() + " ms, at +"
                    + TimeUnit.NANOSECONDS.toMillis(endNanos - killNanos) + " ms";
        }

        void releaseQuietly() {
            if (handle != null) {
                RedisLockSentinelTest.releaseQuietly(handle);
            }
        }
    }
}
