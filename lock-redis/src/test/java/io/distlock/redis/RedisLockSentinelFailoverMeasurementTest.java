package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.test.redis.TestRedisSentinel;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The figures of the README's Sentinel table: the primary is SIGKILLed {@value #KILLS} times, each time under held
 * locks and eight waiters of other processes ({@link SentinelFailoverRound}) whose 40 s waits outlast the failover, and
 * the killed server comes back as a replica before the next kill. It counts the waiters that got their key and those
 * that gave up, and why, and how long after the kill each got it. The clients are Spring Boot's defaults with the
 * README's 2 s timeout: Lettuce's own reconnect delay, which doubles up to 30 s. About two minutes: the full tier only.
 */
@Tag("full")
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class RedisLockSentinelFailoverMeasurementTest {

    private static final int KILLS = 10;

    private static final Duration WAIT = Duration.ofSeconds(40);

    private static TestRedisSentinel sentinel;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "sentinel-kills:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void startSentinel() {
        sentinel = TestRedisSentinel.start();
    }

    @AfterAll
    static void stopSentinel() {
        sentinel.close();
    }

    @AfterEach
    void stopThreads() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void tenKillsOfThePrimaryUnderHeldLocksAndWaiters() throws Exception {
        List<SentinelFailoverRound.Result> rounds = new ArrayList<>();
        for (int kill = 1; kill <= KILLS; kill++) {
            SentinelFailoverRound.Result round;
            try (SentinelClients clients = new SentinelClients(sentinel, Delay.exponential())) {
                round = SentinelFailoverRound.play(sentinel, clients, threads, key + kill + ":", WAIT);
            }
            System.out.println("sentinel failover kill " + kill + ": " + round);
            rounds.add(round);
            SentinelFailoverRound.restoreReplica(round.killed(), Duration.ofSeconds(60));
        }

        List<SentinelFailoverRound.Outcome> outcomes =
                rounds.stream().flatMap(round -> round.outcomes().stream()).toList();
        Map<String, Long> gaveUp = outcomes.stream()
                .filter(outcome -> !outcome.acquired())
                .collect(Collectors.groupingBy(
                        outcome -> outcome.kind() + ": " + outcome.result(), TreeMap::new, Collectors.counting()));
        System.out.printf(
                "sentinel failover measurement, %d kills: %d of %d waiters got their key, %d gave up %s;"
                        + " promotion %s; kill to grant behind a lease that ended %d ms after the kill %s;"
                        + " behind a lease that ended after the promotion %s%n",
                KILLS,
                outcomes.stream()
                        .filter(SentinelFailoverRound.Outcome::acquired)
                        .count(),
                outcomes.size(),
                outcomes.size()
                        - outcomes.stream()
                                .filter(SentinelFailoverRound.Outcome::acquired)
                                .count(),
                gaveUp,
                spread(rounds.stream()
                        .map(SentinelFailoverRound.Result::promotedMillis)
                        .toList()),
                SentinelFailoverRound.SHORT_LEASE
                        .minus(SentinelFailoverRound.KILL_AFTER_HOLDS)
                        .toMillis(),
                spread(grantTimes(outcomes, lease -> lease.equals(SentinelFailoverRound.SHORT_LEASE))),
                spread(grantTimes(outcomes, lease -> lease.equals(SentinelFailoverRound.LONG_LEASE))));

        assertThat(gaveUp).as("waiters that gave up, by kind and reason").isEmpty();
    }

    private static List<Long> grantTimes(List<SentinelFailoverRound.Outcome> outcomes, Predicate<Duration> lease) {
        return outcomes.stream()
                .filter(outcome -> outcome.acquired() && lease.test(outcome.holderLease()))
                .map(SentinelFailoverRound.Outcome::killToEndMillis)
                .toList();
    }

    /** Min, median and max, in ms. */
    private static String spread(List<Long> millis) {
        if (millis.isEmpty()) {
            return "(none)";
        }
        List<Long> sorted = millis.stream().sorted().toList();
        int size = sorted.size();
        long median = size % 2 == 1 ? sorted.get(size / 2) : (sorted.get(size / 2 - 1) + sorted.get(size / 2)) / 2;
        return "min " + sorted.get(0) + " / median " + median + " / max " + sorted.get(size - 1) + " ms (" + size + ")";
    }
}
