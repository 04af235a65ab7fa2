package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.redis.internal.fair.FairCommands;
import io.distlock.redis.internal.scripts.FenceFunctions;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.scripts.ScriptRunner;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fair lock's queue in Redis: arrival order across clients, and waiters that die or stop waiting. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FairLockTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "fair:" + UUID.randomUUID();
    private final String queueKey = "{distlock:" + key + "}:queue";

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void extendingAHandedOverLeaseNeverShortensTheLongerLeaseOfANestedAcquisition() throws Exception {
        Lock waiter = clients.lock().fair();
        LockHandle handedOver = null;
        String heldKey = null;
        // A waiter call that crosses the handover gives the waiter its full lease at once; then there is no short
        // lease to extend, and another round is needed.
        for (int round = 0; round < 5 && handedOver == null; round++) {
            heldKey = key + ":" + round;
            handedOver = handedOverProvisionally(waiter, heldKey);
        }
        assumeTrue(handedOver != null, "no round of 5 handed the lock over with a provisional lease");
        LockHandle nested;
        try (LockContext.Scope scope = LockContext.enter(handedOver)) {
            nested = waiter.tryAcquire(heldKey, LONG).orElseThrow();
        }
        String lockKey = "{distlock:" + heldKey + "}";

        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .until(() -> Long.parseLong(TestRedis.shared().command("PTTL", lockKey)) > 25_000);
        assertThat(nested.remainingLease()).isGreaterThan(Duration.ofSeconds(25));
        nested.release();
        handedOver.release();
    }

    /**
     * Hands {@code heldKey} from another instance to a waiter of {@code waiter}'s: a provisional lease of at most its
     * 2 s heartbeat timeout, which the waiter extends to its 3 s after a third of it.
     *
     * @return the waiter's handle, or null if the waiter got its full lease at once; nothing is held then
     */
    private @Nullable LockHandle handedOverProvisionally(Lock waiter, String heldKey) throws Exception {
        LockHandle first = clients.lock().fair().tryAcquire(heldKey, LONG).orElseThrow();
        Future<Optional<LockHandle>> waiting = threads.submit(
                () -> waiter.tryAcquire(heldKey, Lease.fixed(Duration.ofSeconds(3)), Duration.ofSeconds(20)));
        String heldQueue = "{distlock:" + heldKey + "}:queue";
        await().atMost(Duration.ofSeconds(5))
                .until(() -> TestRedis.shared().command("ZCARD", heldQueue).equals("1"));
        // A new subscription makes the waiter look again at once: let that pass first.
        String ticket = TestRedis.shared().command("ZRANGE", heldQueue, "0", "0");
        String handoverChannel = "distlock:released:" + ticket.substring(0, ticket.indexOf('.'));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> TestRedis.shared()
                        .command("PUBSUB", "NUMSUB", handoverChannel)
                        .endsWith("\n1"));
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        first.release();
        LockHandle handedOver = waiting.get(10, TimeUnit.SECONDS).orElseThrow();
        if (handedOver.remainingLease().compareTo(Duration.ofMillis(2001)) < 0) {
            return handedOver;
        }
        handedOver.release();
        return null;
    }

    @Test
    void waitersOfSeveralClientsAreServedInTheOrderTheyArrived() throws Exception {
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        List<Lock> clientLocks = List.of(
                clients.lock().fair(), clients.lock().fair(), clients.lock().fair());
        List<Integer> served = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Future<?>> waiters = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            int arrival = i;
            Lock lock = clientLocks.get(i % clientLocks.size());
            waiters.add(threads.submit(() -> {
                try (LockHandle held = lock.acquire(key, LONG)) {
                    served.add(arrival);
                }
                return null;
            }));
            int queued = i + 1;
            await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == queued);
        }

        holder.release();
        for (Future<?> waiter : waiters) {
            waiter.get(20, TimeUnit.SECONDS);
        }

        assertThat(served).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void aDeadWaiterAtTheHeadHoldsUpTheLineForAtMostTheHeartbeatTimeout() throws Exception {
        FairLock lock = clients.lock().fair();
        LockHandle holder = lock.tryAcquire(key, LONG).orElseThrow();
        queueADeadWaiter();
        Future<LockHandle> live = threads.submit(() -> clients.lock().fair().acquire(key, LONG));
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 2);

        long released = System.nanoTime();
        holder.release();
        LockHandle next = live.get(10, TimeUnit.SECONDS);
        Duration stalled = Duration.ofNanos(System.nanoTime() - released);

        System.out.printf("The waiter behind a dead one was served %d ms after the release%n", stalled.toMillis());
        assertThat(stalled).isLessThan(Duration.ofMillis(FairLock.HEARTBEAT_TIMEOUT_MILLIS + 500));
        assertThat(next.isHeld()).isTrue();
    }

    @Test
    void aDeadWaiterInTheMiddleLeavesTheQueueBeforeItsTurnComes() throws Exception {
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        queueADeadWaiter();
        Future<LockHandle> live = threads.submit(() -> clients.lock().fair().acquire(key, LONG));
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 2);
        // The dead waiter's heartbeat timeout passes while the lock is still held.
        await().pollDelay(Duration.ofMillis(FairLock.HEARTBEAT_TIMEOUT_MILLIS + 200))
                .atMost(Duration.ofSeconds(5))
                .until(() -> true);

        long released = System.nanoTime();
        holder.release();
        live.get(10, TimeUnit.SECONDS);

        // Well before the heartbeat timeout that a dead or departed waiter ahead would have cost.
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .isLessThan(Duration.ofMillis(FairLock.HEARTBEAT_TIMEOUT_MILLIS - 500));
    }

    @Test
    void aWaiterWhoseWaitEndedOrWasInterruptedLeavesTheQueueAtOnce() throws Exception {
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        Future<Optional<LockHandle>> impatient =
                threads.submit(() -> clients.lock().fair().tryAcquire(key, LONG, Duration.ofSeconds(2)));
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 1);
        Future<LockHandle> interrupted =
                threads.submit(() -> clients.lock().fair().acquire(key, LONG));
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 2);
        Future<LockHandle> patient = threads.submit(() -> clients.lock().fair().acquire(key, LONG));
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 3);

        assertThat(impatient.get(5, TimeUnit.SECONDS)).isEmpty();
        interrupted.cancel(true);
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 1);

        long released = System.nanoTime();
        holder.release();
        assertThat(patient.get(5, TimeUnit.SECONDS).isHeld()).isTrue();
        // Well before the heartbeat timeout that a dead or departed waiter ahead would have cost.
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .isLessThan(Duration.ofMillis(FairLock.HEARTBEAT_TIMEOUT_MILLIS - 500));
    }

    @Test
    void aFreeLockIsNotTakenAheadOfTheQueue() throws Exception {
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        Future<LockHandle> waiter = threads.submit(() -> clients.lock().fair().acquire(key, LONG));
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 1);
        FairLock barger = clients.lock().fair();

        holder.release();

        assertThat(barger.tryAcquire(key, LONG))
                .as("the queue's first waiter has it")
                .isEmpty();
        LockHandle served = waiter.get(5, TimeUnit.SECONDS);
        served.release();
        assertThat(barger.tryAcquire(key, LONG)).isPresent();
    }

    /** Queues a ticket the way a waiter does, then never calls again, as a waiter that was killed. */
    private void queueADeadWaiter() throws Exception {
        try (RedisClients dying = new RedisClients(TestRedis.shared())) {
            ScriptRunner runner = new ScriptRunner(dying.connectionFactory());
            FairCommands commands = new FairCommands(
                    runner,
                    ReleaseChannels.classicOnly("distlock:released"),
                    OwnerTokens.newInstanceId(),
                    "dead-waiter",
                    FenceFunctions.KEEP_FOR_EVER,
                    lockKey -> {});
            commands.acquire(
                            key,
                            "{distlock:" + key + "}",
                            commands.newTicket(),
                            OwnerTokens.newToken(),
                            30_000,
                            FairLock.HEARTBEAT_TIMEOUT_MILLIS,
                            true)
                    .answer()
                    .get(5, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 1);
    }

    private long queueLength() {
        return Long.parseLong(TestRedis.shared().command("ZCARD", queueKey));
    }
}
