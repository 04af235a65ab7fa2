package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.monitor.BackendState;
import io.distlock.reactor.ReactiveLock;
import io.distlock.tck.net.FreePorts;
import io.distlock.tck.net.TcpProxy;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

/** Redis restarted, slow or stalled under held and waited locks: nobody hangs, losses are reported, all recovers. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RedisFaultsTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "faults:" + UUID.randomUUID();

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void restartWhileLocksAreHeldAndWaitedForRecoversAndReportsTheLosses() throws Exception {
        try (TestRedis redis = TestRedis.start();
                RedisClients clients = new RedisClients(redis)) {
            RedisLock holder = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(1500)));
            RedisLock waiter = clients.lock();
            LockHandle renewed = holder.tryAcquire(key + ":renewed").orElseThrow();
            LockHandle fixed = holder.tryAcquire(key + ":fixed", LONG).orElseThrow();
            holder.tryAcquire(key + ":short-wait", LONG).orElseThrow();
            AtomicReference<LockLostException> renewedLoss = new AtomicReference<>();
            renewed.onLost(renewedLoss::set);
            Future<Optional<LockHandle>> patient =
                    submit(() -> waiter.tryAcquire(key + ":fixed", LONG, Duration.ofSeconds(20)));
            Future<Optional<LockHandle>> impatient =
                    submit(() -> waiter.tryAcquire(key + ":short-wait", LONG, Duration.ofMillis(1500)));
            Thread.sleep(300);
            // The release channel must be heard before the outage: the client resubscribes a subscription it had,
            // while one that a busy machine had not made yet before the kill leaves waiters to their holders' leases.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> waiter.checkBackend().subscription() == BackendState.Subscription.SUBSCRIBED);

            long outage = System.nanoTime();
            redis.kill();
            Thread.sleep(1000);
            redis.startAgain();
            long restarted = System.nanoTime();

            // The short wait ends on time, with whatever it could learn: no lock, an error, or the freed lock.
            assertThatWaitEnded(impatient, outage, Duration.ofMillis(1500 + 700));
            // The restart emptied Redis; the patient waiter is woken when the subscription comes back.
            assertThat(patient.get(10, TimeUnit.SECONDS)).isPresent();
            System.out.printf(
                    "Waiter acquired the vanished lock %d ms after Redis restarted%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted));
            // The renewed hold is reported lost: renewals failed for a whole lease, or found the key gone. The fixed
            // hold learns it when it releases.
            await().atMost(Duration.ofSeconds(5)).until(() -> renewedLoss.get() != null);
            assertThat(renewedLoss.get().reason())
                    .isIn(LockLostException.Reason.RENEWAL_FAILED, LockLostException.Reason.KEY_GONE);
            assertThatThrownBy(fixed::release).isInstanceOf(LockLostException.class);

            // The same clients work again, including the wake-up of waiters by release notifications.
            LockHandle again = holder.tryAcquire(key + ":after", LONG).orElseThrow();
            Future<Optional<LockHandle>> woken =
                    submit(() -> waiter.tryAcquire(key + ":after", LONG, Duration.ofSeconds(20)));
            Thread.sleep(300);
            long released = System.nanoTime();
            again.release();
            assertThat(woken.get(10, TimeUnit.SECONDS)).isPresent();
            assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(Duration.ofSeconds(1));
            // And renewals: a new auto-renewed hold outlives its watchdog lease twice over.
            LockHandle renewedAgain = holder.tryAcquire(key + ":renewed-again").orElseThrow();
            Thread.sleep(3000);
            assertThat(renewedAgain.isLost()).isFalse();
            assertThat(renewedAgain.isHeld()).isTrue();
            renewedAgain.release();
        }
    }

    @Test
    void slowRedisStillEndsWaitsOnTimeAndAnswersWithinTheCommandTimeout() throws Exception {
        try (TestRedis redis = TestRedis.start();
                TcpProxy network = TcpProxy.start(redis.host(), redis.port());
                RedisClients clients = new RedisClients("127.0.0.1", network.port(), null)) {
            RedisLock lock = clients.lock();
            lock.tryAcquire(key + ":warm-up", LONG).orElseThrow().release();
            // Bounds below leave a busy machine two seconds of scheduling delay (one was not enough beside a full
            // parallel build: 1,300.4 ms), and still fail a call that waits for Redis's answer, a whole latency later.
            network.latency(Duration.ofMillis(3000));

            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofMillis(100)))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("did not answer within")
                    .hasMessageContaining(key);
            // Promised: the wait (100 ms) and 200 ms for the attempt on its way.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2500));

            // The proxy forwards the delayed commands first; once an acquisition gets through, the way is clear.
            network.latency(Duration.ZERO);
            lock.tryAcquire(key + ":drained", LONG, Duration.ofSeconds(10))
                    .orElseThrow()
                    .release();
            network.latency(Duration.ofMillis(300));
            LockHandle slow = lock.tryAcquire(key + ":slow", LONG).orElseThrow();
            slow.release();

            network.latency(Duration.ofSeconds(6));
            start = System.nanoTime();
            // distlock's own bound on the answer and Lettuce's command timeout are the same 2 s, so either may end
            // the call first on a loaded machine; both name the key and the timeout.
            assertThatThrownBy(() -> lock.tryAcquire(key + ":stalled", LONG))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining(key + ":stalled")
                    .satisfies(e -> assertThat(e.getMessage())
                            .containsAnyOf(
                                    "within " + RedisClients.COMMAND_TIMEOUT.toMillis() + " ms",
                                    "timed out after " + RedisClients.COMMAND_TIMEOUT.toSeconds() + " second(s)"));
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(RedisClients.COMMAND_TIMEOUT.plusMillis(2500));
            network.latency(Duration.ZERO);
        }
    }

    /**
     * A grant whose answer takes longer than its own lease reaches a holder that has lost it already: the work must not
     * start. With 400 ms each way, a 300 ms lease has run out, counted from the send, when the answer arrives.
     */
    @Test
    void aGrantThatArrivesAfterItsLeaseRanOutStartsNoWork() throws Exception {
        try (TestRedis redis = TestRedis.start();
                TcpProxy network = TcpProxy.start(redis.host(), redis.port());
                RedisClients clients = new RedisClients("127.0.0.1", network.port(), null)) {
            RedisLock lock = clients.lock();
            lock.tryAcquire(key + ":warm-up", LONG).orElseThrow().release();
            network.latency(Duration.ofMillis(400));
            AtomicBoolean ran = new AtomicBoolean();

            assertThatThrownBy(() -> lock.callWithLock(
                            key + ":late", Lease.fixed(Duration.ofMillis(300)), Duration.ofSeconds(5), () -> {
                                ran.set(true);
                                return null;
                            }))
                    .isInstanceOfSatisfying(
                            LockLostException.class,
                            e -> assertThat(e.reason()).isEqualTo(LockLostException.Reason.GRANTED_TOO_LATE))
                    .hasMessageContaining(key + ":late");
            assertThat(ran).isFalse();

            ReactiveLock reactive = new ReactiveLock(lock);
            assertThatThrownBy(() -> reactive.withLock(
                                    key + ":late-mono",
                                    Lease.fixed(Duration.ofMillis(300)),
                                    Duration.ofSeconds(5),
                                    held -> Mono.fromRunnable(() -> ran.set(true)))
                            .block(Duration.ofSeconds(30)))
                    .isInstanceOf(LockLostException.class)
                    .hasMessageContaining(key + ":late-mono");
            assertThat(ran).isFalse();

            // The control: on the same slow network, a lease that outlasts the answer runs the work.
            assertThat(lock.callWithLock(
                            key + ":in-time", Lease.fixed(Duration.ofSeconds(10)), Duration.ofSeconds(5), () -> "ran"))
                    .isEqualTo("ran");
            network.latency(Duration.ZERO);
        }
    }

    @Test
    void aWaitOnAnUnreachableRedisKeepsTryingUntilItsDeadlineAndThenFails() throws Exception {
        try (RedisClients nowhere = new RedisClients("127.0.0.1", FreePorts.next(), null)) {
            RedisLock lock = nowhere.lock();
            Duration wait = Duration.ofSeconds(1);

            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, wait))
                    .as("Redis never answered within the wait")
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining(key);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            // Refused connections are "not answered yet": the wait goes on to its end, plus an attempt on its way.
            assertThat(took).isGreaterThanOrEqualTo(wait).isLessThan(wait.plusSeconds(2));
        }
    }

    @Test
    void aWaitWithoutDeadlineOnAnUnreachableRedisFailsAtOnce() throws Exception {
        try (RedisClients nowhere = new RedisClients("127.0.0.1", FreePorts.next(), null)) {
            RedisLock lock = nowhere.lock();

            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.acquire(key, LONG)).isInstanceOf(LockBackendException.class);

            // No end to ride an outage out to: it says so within the client's timeouts rather than hang.
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(RedisClients.COMMAND_TIMEOUT.plusSeconds(10));
        }
    }

    @Test
    void aWaitEndsAtOnceOnAnErrorThatTryingAgainCannotMend() throws Exception {
        try (TestRedis redis = TestRedis.start();
                RedisClients clients = new RedisClients(redis)) {
            RedisLock lock = clients.lock();
            lock.tryAcquire(key + ":warm-up", LONG).orElseThrow().release();
            redis.command("SET", "{distlock:" + key + "}:fence", "not-a-number");

            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofSeconds(20)))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("not an integer");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    private <T> Future<T> submit(Callable<T> call) {
        return threads.submit(call);
    }

    private static void assertThatWaitEnded(Future<Optional<LockHandle>> wait, long since, Duration within)
            throws InterruptedException {
        long remaining = within.toNanos() - (System.nanoTime() - since);
        try {
            wait.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(LockBackendException.class);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(
                    "a wait of 1.5 s still ran " + within.toMillis() + " ms after the outage began", e);
        }
    }
}
