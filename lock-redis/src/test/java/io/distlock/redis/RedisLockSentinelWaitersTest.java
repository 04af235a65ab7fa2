package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.test.redis.TestRedisSentinel;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Waiters ride out a Sentinel failover that ends before their waits do: the primary is SIGKILLed while locks are held
 * and other processes wait for them, and every waiter gets its key once a replica is promoted, whatever kind of wait
 * it is and whether the holder's lease ended during the outage or after it. As {@link io.distlock.Lock} says, a waiting
 * form fails with {@link io.distlock.LockBackendException} only if the store never answered within its wait; failed
 * and unanswered attempts while the primary is gone are "not answered yet". Before, waiters gave up with "Connection
 * refused" or "Command timed out" as soon as an attempt met the outage.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisLockSentinelWaitersTest {

    /** As in {@link RedisLockSentinelTest}: every connection follows the promotion within a few hundred ms. */
    private static final Delay RECONNECT_DELAY =
            Delay.exponential(Duration.ZERO, Duration.ofMillis(500), 2, TimeUnit.MILLISECONDS);

    /** Outlasts the failover (a few seconds) and the longest holder's lease after it, on a loaded machine too. */
    private static final Duration WAIT = Duration.ofSeconds(40);

    private static TestRedisSentinel sentinel;

    private final SentinelClients clients =
            new SentinelClients(sentinel, Boolean.getBoolean("defaultDelay") ? Delay.exponential() : RECONNECT_DELAY);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "sentinel-waiters:" + UUID.randomUUID() + ":";

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
    void everyWaiterWhoseWaitOutlastsTheFailoverGetsItsKey() throws Exception {
        SentinelFailoverRound.Result round = SentinelFailoverRound.play(sentinel, clients, threads, key, WAIT);

        System.out.println("sentinel failover waiters: " + round);
        assertThat(round.outcomes())
                .allSatisfy(outcome ->
                        assertThat(outcome.result()).as("%s", outcome).isEqualTo("acquired"));
        assertThat(round.outcomes())
                .allSatisfy(outcome -> assertThat(outcome.waitedMillis()).isLessThan(WAIT.toMillis()));
    }
}
