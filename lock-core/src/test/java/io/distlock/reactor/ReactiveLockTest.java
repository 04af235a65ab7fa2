package io.distlock.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * {@link ReactiveLock}: waits without a thread, holds for the life of the work's publisher. The adapter is the same on
 * every backend; two locks over one in-memory store stand for two clients of one server.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReactiveLockTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));
    /** For a held key: long enough for the store to be asked at least once on a busy machine. */
    private static final Duration SHORT_WAIT = Duration.ofSeconds(1);

    private static final Duration WAIT = Duration.ofSeconds(5);

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final StoreLock lock = newLock();
    private final StoreLock other = newLock();
    private final ReactiveLock reactive = new ReactiveLock(lock);
    private final String key = "reactive:" + UUID.randomUUID();

    @AfterEach
    void close() {
        lock.close();
        other.close();
    }

    @Test
    void acquireEmitsAHandleOnSubscriptionOnly() throws Exception {
        Mono<LockHandle> acquisition = reactive.acquire(key, LONG, WAIT);
        assertThat(isFree()).isTrue();

        LockHandle held = acquisition.toFuture().get(5, TimeUnit.SECONDS);

        assertThat(held.key()).isEqualTo(key);
        assertThat(isFree()).isFalse();
        held.release();
        assertThat(isFree()).isTrue();
    }

    @Test
    void acquireFailsWithLockNotAcquiredWhenTheWaitRunsOut() throws Exception {
        try (LockHandle elsewhere = other.tryAcquire(key, LONG).orElseThrow()) {
            CompletableFuture<LockHandle> acquisition =
                    reactive.acquire(key, LONG, SHORT_WAIT).toFuture();

            assertThatThrownBy(() -> acquisition.get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOfSatisfying(
                            LockNotAcquiredException.class,
                            e -> assertThat(e.key()).isEqualTo(key));
        }
    }

    @Test
    void cancellingAWaitingSubscriptionEndsTheWaitAndTakesNothing() throws Exception {
        LockHandle elsewhere = other.tryAcquire(key, LONG).orElseThrow();
        AtomicBoolean delivered = new AtomicBoolean();
        Disposable waiting =
                reactive.acquire(key, LONG, Duration.ofSeconds(20)).subscribe(handle -> delivered.set(true));

        waiting.dispose();
        elsewhere.release();

        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(delivered).isFalse();
        assertThat(isFree()).isTrue();
    }

    @Test
    void withLockHoldsUntilTheWorkMonoCompletes() throws Exception {
        Sinks.One<String> result = Sinks.one();
        CompletableFuture<String> call =
                reactive.withLock(key, LONG, WAIT, held -> result.asMono()).toFuture();

        await().atMost(Duration.ofSeconds(5)).until(() -> !isFree());
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(isFree()).isFalse();
        assertThat(call).isNotDone();

        result.tryEmitValue("done");

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(isFree()).isTrue();
    }

    @Test
    void withLockManyReleasesWhenTheWorkFails() {
        Flux<String> failing = reactive.withLockMany(
                key, LONG, WAIT, held -> Flux.concat(Flux.just("a"), Flux.error(new IllegalStateException("x"))));

        assertThatThrownBy(() -> failing.collectList().block(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("x");
        assertThat(isFree()).isTrue();
    }

    @Test
    void withLockManyReleasesWhenDownstreamTakesOnlySomeElements() {
        List<Long> firstThree = reactive.withLockMany(key, LONG, WAIT, held -> Flux.interval(Duration.ofMillis(10)))
                .take(3)
                .collectList()
                .block(Duration.ofSeconds(5));

        assertThat(firstThree).containsExactly(0L, 1L, 2L);
        await().atMost(Duration.ofSeconds(5)).until(this::isFree);
    }

    @Test
    void notAcquiredFailsWithoutRunningTheWork() {
        AtomicInteger runs = new AtomicInteger();
        try (LockHandle elsewhere = other.tryAcquire(key, LONG).orElseThrow()) {
            Mono<String> call = reactive.withLock(key, LONG, SHORT_WAIT, held -> {
                runs.incrementAndGet();
                return Mono.just("ran");
            });

            // What is promised is that the work never runs: "not acquired" once the store answered that the key is
            // held, or LockBackendException if a starved machine kept the answer past the wait and its grace.
            assertThatThrownBy(() -> call.block(Duration.ofSeconds(5)))
                    .isInstanceOfAny(LockNotAcquiredException.class, LockBackendException.class);
        }
        assertThat(runs).hasValue(0);
    }

    @Test
    void aLeaseLostWhileTheWorkRunsCancelsItAndFailsWithLockLost() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<Long> endless = reactive.withLockMany(
                key,
                Lease.fixed(Duration.ofSeconds(1)),
                WAIT,
                held -> Flux.interval(Duration.ofMillis(50)).doOnCancel(() -> cancelled.set(true)));

        assertThatThrownBy(() -> endless.blockLast(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(
                        LockLostException.class, e -> assertThat(e.key()).isEqualTo(key));
        await().atMost(Duration.ofSeconds(2)).untilTrue(cancelled);
    }

    @Test
    void theHandleIsInTheWorksContextAndNestedWorkOnTheKeyJoinsTheHold() {
        List<Long> tokens = reactive.withLock(
                        key,
                        LONG,
                        WAIT,
                        outer -> ReactiveLockContext.current(key)
                                .zipWith(reactive.withLock(key, LONG, Duration.ZERO, Mono::just))
                                .map(both -> List.of(
                                        outer.fencingToken(),
                                        both.getT1().fencingToken(),
                                        both.getT2().fencingToken())))
                .block(Duration.ofSeconds(5));

        assertThat(tokens).hasSize(3).containsOnly(tokens.get(0));
        assertThat(isFree()).isTrue();
        assertThat(ReactiveLockContext.current(key).blockOptional(Duration.ofSeconds(1)))
                .isEmpty();
    }

    private boolean isFree() {
        Optional<LockHandle> probe = other.tryAcquire(key, LONG);
        probe.ifPresent(LockHandle::release);
        return probe.isPresent();
    }

    private StoreLock newLock() {
        return StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();
    }
}
