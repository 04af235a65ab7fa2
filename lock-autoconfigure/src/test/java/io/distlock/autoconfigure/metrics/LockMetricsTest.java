package io.distlock.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.redis.RedisLock;
import io.distlock.test.redis.TestRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The meters and observations that a real lock on a real Redis records through the auto-configured observers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockMetricsTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataRedisAutoConfiguration.class,
                    DistributedLockAutoConfiguration.class,
                    DistributedLockMetricsAutoConfiguration.class,
                    // Binds the gauges to the registry.
                    MetricsAutoConfiguration.class))
            .withUserConfiguration(TestRegistries.class)
            .withPropertyValues(
                    "spring.data.redis.port=" + TestRedis.shared().port(),
                    "spring.data.redis.timeout=2s",
                    "distlock.watchdog.lease=1s",
                    "distlock.watchdog.renew-interval=100ms");

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String id = UUID.randomUUID().toString();

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void acquisitionsAreTimedByKindGroupAndOutcome() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            String key = "stock:" + id;

            try (LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow()) {
                assertThat(lock.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
            }
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LONG), LONG))
                    .isInstanceOf(InterruptedException.class);

            assertThat(acquisitions(context, "acquired")).isEqualTo(1);
            assertThat(acquisitions(context, "not_acquired")).isEqualTo(1);
            assertThat(acquisitions(context, "error")).isEqualTo(1);
        });
    }

    @Test
    void holdsAreTimedToTheirEndAndLossesAreCountedByReason() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            lock.tryAcquire("job:" + id, Lease.fixed(LONG)).orElseThrow().release();
            LockHandle expiring = lock.tryAcquire("order:" + id, Lease.fixed(Duration.ofMillis(100)))
                    .orElseThrow();
            await().atMost(PATIENCE).until(expiring::isLost);
            assertThatThrownBy(expiring::release).isInstanceOf(LockLostException.class);

            assertThat(heldTimer(context, "job", "released")).isEqualTo(1);
            assertThat(heldTimer(context, "order", "lost")).isEqualTo(1);
            assertThat(meters(context)
                            .get(MicrometerLockObserver.LOST)
                            .tags("kind", "exclusive", "group", "order", "reason", "lease_expired")
                            .counter()
                            .count())
                    .isEqualTo(1);
        });
    }

    @Test
    void renewalsHandoversAndWaitingThreadsAreCounted() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            String key = "report:" + id;
            LockHandle first = lock.acquire(key, Lease.renewed());
            await().atMost(PATIENCE).until(() -> renewals(context, "succeeded") > 0);
            assertThat(meters(context).get(LockGaugesBinder.HELD_LOCKS).gauge().value())
                    .isEqualTo(1.0);

            Future<Optional<LockHandle>> waiter = threads.submit(() -> lock.tryAcquire(key, Lease.fixed(LONG), LONG));
            await().atMost(PATIENCE)
                    .until(() -> meters(context)
                                    .get(LockGaugesBinder.WAITING_THREADS)
                                    .gauge()
                                    .value()
                            == 1.0);
            first.release();
            waiter.get(10, TimeUnit.SECONDS).orElseThrow().release();

            assertThat(meters(context)
                            .get(MicrometerLockObserver.HANDOVERS)
                            .tag("group", "report")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(renewals(context, "failed")).isZero();
            assertThat(meters(context).get(LockGaugesBinder.HELD_LOCKS).gauge().value())
                    .isZero();
            assertThat(meters(context)
                            .get(LockGaugesBinder.WAITING_THREADS)
                            .gauge()
                            .value())
                    .isZero();
        });
    }

    @Test
    void everyKindIsTaggedAndAPathLockIsGroupedByItsTreesPrefix() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);

            lock.fair().acquire("fair:" + id, Lease.fixed(LONG)).release();
            lock.reading().acquire("report:" + id, Lease.fixed(LONG)).release();
            lock.tree("folders:" + id).acquire("a/b", Lease.fixed(LONG)).release();

            assertThat(acquired(context, "fair", "fair")).isEqualTo(1);
            assertThat(acquired(context, "read", "report")).isEqualTo(1);
            assertThat(acquired(context, "path", "folders")).isEqualTo(1);
        });
    }

    @Test
    void acquisitionsAndHoldsAreObservedUnderTheCallersObservation() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
            String key = "stock:" + id;
            Observation request = Observation.start("request", observations);

            try (Observation.Scope scope = request.openScope();
                    LockHandle held = lock.acquire(key, Lease.renewed());
                    LockContext.Scope nested = LockContext.enter(held)) {
                lock.acquire(key, Lease.renewed()).release();
            }
            request.stop();

            TestObservationRegistryAssert.assertThat(observations)
                    .hasNumberOfObservationsWithNameEqualTo(LockObservations.ACQUIRE.getName(), 2)
                    .hasNumberOfObservationsWithNameEqualTo(LockObservations.HELD.getName(), 1)
                    .forAllObservationsWithNameEqualTo(
                            LockObservations.ACQUIRE.getName(),
                            acquisition -> acquisition
                                    .hasContextualNameEqualTo("distlock acquire")
                                    .hasLowCardinalityKeyValue("kind", "exclusive")
                                    .hasLowCardinalityKeyValue("group", "stock")
                                    .hasLowCardinalityKeyValue("outcome", "acquired")
                                    .hasHighCardinalityKeyValue("distlock.key", key)
                                    .hasParentObservationEqualTo(request))
                    .forAllObservationsWithNameEqualTo(
                            LockObservations.HELD.getName(),
                            hold -> hold.hasContextualNameEqualTo("distlock hold")
                                    .hasLowCardinalityKeyValue("outcome", "released")
                                    .hasHighCardinalityKeyValue("distlock.key", key)
                                    .hasParentObservationEqualTo(request))
                    .hasObservationWithNameEqualTo(LockObservations.HELD.getName())
                    .that()
                    .hasBeenStopped();
        });
    }

    @Test
    void aSpansKeyHasItsControlCharactersEscaped() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);

            lock.tryAcquire("stock:" + id + "\r\nforged", Lease.fixed(LONG))
                    .orElseThrow()
                    .release();

            TestObservationRegistryAssert.assertThat(observations)
                    .hasAnObservation(hold -> hold.hasNameEqualTo(LockObservations.HELD.getName())
                            .hasHighCardinalityKeyValue("distlock.key", "stock:" + id + "\\r\\nforged"));
        });
    }

    @Test
    void aFailedAcquisitionAndALostHoldAreObservedAsSuch() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
            LockHandle expiring = lock.tryAcquire("order:" + id, Lease.fixed(Duration.ofMillis(100)))
                    .orElseThrow();
            await().atMost(PATIENCE).until(expiring::isLost);
            assertThatThrownBy(expiring::release).isInstanceOf(LockLostException.class);
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> lock.tryAcquire("stock:" + id, Lease.fixed(LONG), LONG))
                    .isInstanceOf(InterruptedException.class);

            TestObservationRegistryAssert.assertThat(observations)
                    .hasAnObservation(acquisition -> acquisition
                            .hasNameEqualTo(LockObservations.ACQUIRE.getName())
                            .hasLowCardinalityKeyValue("outcome", "error")
                            .hasError())
                    .hasAnObservation(hold -> hold.hasNameEqualTo(LockObservations.HELD.getName())
                            .hasLowCardinalityKeyValue("outcome", "lost")
                            .hasHighCardinalityKeyValue("distlock.lost.reason", "lease_expired"));
        });
    }

    @Test
    void asynchronousAcquisitionsAreTimedAndObservedWithoutAScopeOnAnyThread() {
        runner.run(context -> {
            RedisLock lock = context.getBean(RedisLock.class);
            TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
            String key = "stock:" + id;

            LockHandle held = lock.acquireAsync(key, Lease.fixed(LONG), LONG)
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            assertThat(lock.tryAcquireAsync(key, Lease.fixed(LONG), Duration.ofMillis(200))
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS))
                    .isEmpty();
            held.release();

            assertThat(acquisitions(context, "acquired")).isEqualTo(1);
            assertThat(acquisitions(context, "not_acquired")).isEqualTo(1);
            assertThat(heldTimer(context, "stock", "released")).isEqualTo(1);
            assertThat(observations.getCurrentObservation()).isNull();
            TestObservationRegistryAssert.assertThat(observations)
                    .hasNumberOfObservationsWithNameEqualTo(LockObservations.ACQUIRE.getName(), 2)
                    .hasAnObservation(acquisition -> acquisition
                            .hasNameEqualTo(LockObservations.ACQUIRE.getName())
                            .hasLowCardinalityKeyValue("outcome", "acquired"))
                    .hasAnObservation(acquisition -> acquisition
                            .hasNameEqualTo(LockObservations.ACQUIRE.getName())
                            .hasLowCardinalityKeyValue("outcome", "not_acquired"));
        });
    }

    private static MeterRegistry meters(AssertableApplicationContext context) {
        return context.getBean(MeterRegistry.class);
    }

    private static long acquisitions(AssertableApplicationContext context, String outcome) {
        return meters(context)
                .get(MicrometerLockObserver.ACQUIRE)
                .tags("kind", "exclusive", "group", "stock", "outcome", outcome)
                .timer()
                .count();
    }

    private static long heldTimer(AssertableApplicationContext context, String group, String outcome) {
        return meters(context)
                .get(MicrometerLockObserver.HELD)
                .tags("kind", "exclusive", "group", group, "outcome", outcome)
                .timer()
                .count();
    }

    private static long acquired(AssertableApplicationContext context, String kind, String group) {
        return meters(context)
                .get(MicrometerLockObserver.ACQUIRE)
                .tags("kind", kind, "group", group, "outcome", "acquired")
                .timer()
                .count();
    }

    private static double renewals(AssertableApplicationContext context, String outcome) {
        return meters(context)
                .get(MicrometerLockObserver.RENEWALS)
                .tag("outcome", outcome)
                .counter()
                .count();
    }
}
