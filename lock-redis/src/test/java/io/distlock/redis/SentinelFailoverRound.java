package io.distlock.redis;

import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.redis.internal.waiting.Waiter;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisSentinel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * One SIGKILL of a Sentinel group's primary while locks are held and other processes wait for them with waits that
 * outlast the failover: what each waiter got, and when. Each waiter has a lock, and a Lettuce client, of its own, as a
 * process of its own would; the holders share one. Every kind of wait is there: a blocking exclusive wait, an
 * asynchronous one, a fair one and a reader's; each waits once for a holder whose lease ends early in the outage and
 * once for one whose lease ends after the promotion.
 */
final class SentinelFailoverRound {

    /** The primary is killed this long after the holders took their keys. */
    static final Duration KILL_AFTER_HOLDS = Duration.ofMillis(1800);

    /**
     * Ends 200 ms after the kill, early in the outage (the Sentinels take their down-after time and an election):
     * the waiter's next attempt meets a primary that is gone and a client that has not found the next one.
     */
    static final Duration SHORT_LEASE = Duration.ofSeconds(2);

    /** Ends some seconds after a replica was promoted. */
    static final Duration LONG_LEASE = Duration.ofSeconds(8);

    /** The waiters' own leases, long enough to outlive the round. */
    private static final Lease WAITER_LEASE = Lease.fixed(Duration.ofSeconds(60));

    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    /** How a waiter waits. */
    enum Kind {
        BLOCKING,
        ASYNC,
        FAIR,
        READER
    }

    /**
     * How one waiter's wait ended.
     *
     * @param result "acquired", "not acquired", or the failure's message
     * @param killToEndMillis from the kill to the end of the wait
     * @param waitedMillis from the start of the wait to its end
     */
    record Outcome(Kind kind, Duration holderLease, String result, long killToEndMillis, long waitedMillis) {

        boolean acquired() {
            return result.equals("acquired");
        }

        @Override
        public String toString() {
            return kind + " behind a " + holderLease.toSeconds() + " s lease: " + result + " at +" + killToEndMillis
                    + " ms after waiting " + waitedMillis + " ms";
        }
    }

    /**
     * What one round saw.
     *
     * @param promotedMillis from the kill to the Sentinels' agreement on a new primary
     * @param killed the primary the round killed, which {@link #restoreReplica} can bring back
     */
    record Result(List<Outcome> outcomes, long promotedMillis, TestRedis killed) {

        @Override
        public String toString() {
            return "promoted at +" + promotedMillis + " ms; "
                    + outcomes.stream().map(Outcome::toString).collect(Collectors.joining("; "));
        }
    }

    private SentinelFailoverRound() {}

    /**
     * Plays a round: holds two keys per kind of waiter, starts the waiters, kills the primary once every one of them
     * waits, and returns once every wait ended and the Sentinels promoted a replica. The waiters' handles are released.
     *
     * @param clients where every waiter's lock and the holders' lock come from; the caller closes them
     * @param keyPrefix makes this round's keys its own
     * @param wait each waiter's wait
     */
    static Result play(
            TestRedisSentinel sentinel,
            SentinelClients clients,
            ExecutorService threads,
            String keyPrefix,
            Duration wait)
            throws Exception {
        RedisLock holders = clients.lock(settings -> settings);
        holders.tryAcquire(keyPrefix + "warm-up", Lease.fixed(wait))
                .orElseThrow()
                .release();
        List<Waiter> waiters = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (Duration lease : List.of(SHORT_LEASE, LONG_LEASE)) {
                String key = keyPrefix + kind + "-" + lease.toSeconds();
                RedisLock own = clients.lock(settings -> settings);
                own.tryAcquire(key + "-warm-up", WAITER_LEASE).orElseThrow().release();
                waiters.add(new Waiter(kind, lease, key, own));
            }
        }
        // Held only once every client is connected, so that the short leases end after the kill.
        long heldNanos = System.nanoTime();
        for (Waiter waiter : waiters) {
            holders.tryAcquire(waiter.key(), Lease.fixed(waiter.holderLease())).orElseThrow();
        }
        List<Waiting> waiting = new ArrayList<>();
        for (Waiter waiter : waiters) {
            waiting.add(new Waiting(
                    waiter, threads.submit(() -> waitFor(waiter.lock(), waiter.kind(), waiter.key(), wait))));
        }
        // Every waiter has started to wait (in its queue, or for a release signal) before the kill.
        for (Waiter waiter : waiters) {
            await().atMost(KILL_AFTER_HOLDS)
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> waiter.lock().waitingCount() > 0);
        }
        // The fault comes at a set moment, not when something happened: the short leases then end early in the outage.
        long killAt = heldNanos + KILL_AFTER_HOLDS.toNanos();
        while (System.nanoTime() - killAt < 0) {
            LockSupport.parkNanos(killAt - System.nanoTime());
        }

        long killNanos = System.nanoTime();
        TestRedis killed = sentinel.killPrimary();
        Future<Long> promoted = threads.submit(() -> {
            sentinel.awaitFailover(FAILOVER_TIMEOUT);
            return millisSince(killNanos);
        });
        List<Outcome> outcomes = new ArrayList<>();
        for (Waiting waiter : waiting) {
            Ended ended = waiter.ended().get(wait.plusSeconds(10).toSeconds(), TimeUnit.SECONDS);
            outcomes.add(new Outcome(
                    waiter.waiter().kind(),
                    waiter.waiter().holderLease(),
                    ended.result(),
                    TimeUnit.NANOSECONDS.toMillis(ended.endNanos() - killNanos),
                    TimeUnit.NANOSECONDS.toMillis(ended.endNanos() - ended.startNanos())));
            ended.handle().ifPresent(SentinelFailoverRound::releaseQuietly);
        }
        return new Result(outcomes, promoted.get(FAILOVER_TIMEOUT.toSeconds(), TimeUnit.SECONDS), killed);
    }

    /**
     * Starts the killed primary again and waits until the Sentinels made it a replica of the new one, in sync, so that
     * the next round can kill the primary again.
     */
    static void restoreReplica(TestRedis former, Duration timeout) {
        former.startAgain();
        await().atMost(timeout)
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> {
                    String[] role = former.command("ROLE").split("\n");
                    return role[0].equals("slave") && role[3].equals("connected");
                });
    }

    private static Ended waitFor(RedisLock lock, Kind kind, String key, Duration wait) throws Exception {
        long startNanos = System.nanoTime();
        try {
            Optional<LockHandle> taken = switch (kind) {
                case BLOCKING -> lock.tryAcquire(key, WAITER_LEASE, wait);
                case ASYNC ->
                    lock.tryAcquireAsync(key, WAITER_LEASE, wait)
                            .toCompletableFuture()
                            .get(wait.plusSeconds(10).toSeconds(), TimeUnit.SECONDS);
                case FAIR -> lock.fair().tryAcquire(key, WAITER_LEASE, wait);
                case READER -> lock.reading().tryAcquire(key, WAITER_LEASE, wait);
            };
            return new Ended(taken.isPresent() ? "acquired" : "not acquired", taken, startNanos, System.nanoTime());
        } catch (LockBackendException e) {
            return new Ended(reason(e, key), Optional.empty(), startNanos, System.nanoTime());
        } catch (ExecutionException e) {
            return new Ended(reason(e.getCause(), key), Optional.empty(), startNanos, System.nanoTime());
        }
    }

    /** Why a wait failed, without its key, so that the failures of different rounds can be counted together. */
    private static String reason(Throwable failure, String key) {
        return String.valueOf(failure.getMessage()).replace(key, "<key>");
    }

    private static void releaseQuietly(LockHandle handle) {
        try {
            handle.release();
        } catch (RuntimeException e) {
            // The round has recorded what the waiter got; the lease ends on its own.
        }
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private record Waiter(Kind kind, Duration holderLease, String key, RedisLock lock) {}

    private record Waiting(Waiter waiter, Future<Ended> ended) {}

    private record Ended(String result, Optional<LockHandle> handle, long startNanos, long endNanos) {}
}
