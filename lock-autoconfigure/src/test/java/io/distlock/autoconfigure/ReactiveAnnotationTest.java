package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.reactor.ReactiveLockContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * {@code @DistributedLock} methods returning Reactor's {@link Mono} and {@link Flux}: nothing happens until
 * subscription, and the lock is held until the publisher completes, fails or is cancelled. What the annotation does on
 * any backend, shown on the in-memory one, whose store the tests reach to remove a key behind its holder's back.
 */
@SpringBootTest(properties = "distlock.backend=in-memory")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReactiveAnnotationTest {

    private static final Lease ELSEWHERE = Lease.fixed(Duration.ofSeconds(30));

    @Autowired
    private InMemoryLeaseStore store;

    @Autowired
    private Publishers publishers;

    @Autowired
    private Outer outer;

    @Autowired
    private Lock lock;

    private final String id = UUID.randomUUID().toString();
    private final String key = "reactive:" + id;

    @Test
    void nothingIsAcquiredOrCalledBeforeSubscription() {
        Mono<String> call = publishers.mono(id, Mono.just("ran"));

        assertThat(publishers.runs(id)).isZero();
        assertThat(isFree()).isTrue();
        assertThat(call.block(Duration.ofSeconds(5))).isEqualTo("ran");
        assertThat(publishers.runs(id)).isOne();
    }

    @Test
    void heldUntilTheReturnedMonoCompletes() throws Exception {
        Sinks.One<String> work = Sinks.one();
        CompletableFuture<String> call = publishers.mono(id, work.asMono()).toFuture();

        await().atMost(Duration.ofSeconds(5)).until(() -> publishers.runs(id) == 1);
        assertThat(isFree()).isFalse();
        assertThat(call).isNotDone();

        work.tryEmitValue("done");

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(isFree()).isTrue();
    }

    @Test
    void heldUntilTheReturnedFluxCompletes() throws Exception {
        Sinks.Many<String> work = Sinks.many().unicast().onBackpressureBuffer();
        CompletableFuture<List<String>> call =
                publishers.flux(id, work.asFlux()).collectList().toFuture();

        await().atMost(Duration.ofSeconds(5)).until(() -> publishers.runs(id) == 1);
        work.tryEmitNext("a");
        await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(isFree()).isFalse();

        work.tryEmitNext("b");
        work.tryEmitComplete();

        assertThat(call.get(5, TimeUnit.SECONDS)).containsExactly("a", "b");
        assertThat(isFree()).isTrue();
    }

    @Test
    void releasedWhenTheMonoFails() {
        Mono<String> call = publishers.mono(id, Mono.error(new IllegalStateException("out of stock")));

        assertThatThrownBy(() -> call.block(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("out of stock");
        assertThat(isFree()).isTrue();
    }

    @Test
    void releasedWhenTheFluxFails() {
        Flux<String> call =
                publishers.flux(id, Flux.concat(Flux.just("a"), Flux.error(new IllegalStateException("out of stock"))));

        assertThatThrownBy(() -> call.collectList().block(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("out of stock");
        assertThat(isFree()).isTrue();
    }

    @Test
    void aLeaseLostWhileTheMonoRunsFailsItWithLockLost() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Mono<String> call =
                publishers.neverUnderShortLease(id, Mono.<String>never().doOnCancel(() -> cancelled.set(true)));

        assertThatThrownBy(() -> call.block(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(
                        LockLostException.class, e -> assertThat(e.key()).isEqualTo(key));
        await().atMost(Duration.ofSeconds(2)).untilTrue(cancelled);
    }

    @Test
    void releasedWhenTheMonoSubscriptionIsCancelled() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Disposable subscription = publishers
                .mono(id, Mono.<String>never().doOnCancel(() -> cancelled.set(true)))
                .subscribe();
        await().atMost(Duration.ofSeconds(5)).until(() -> publishers.runs(id) == 1);
        assertThat(isFree()).isFalse();

        subscription.dispose();

        await().atMost(Duration.ofSeconds(5)).until(this::isFree);
        assertThat(cancelled).isTrue();
    }

    @Test
    void releasedWhenDownstreamTakesOnlyPartOfAnEndlessFlux() {
        List<Long> firstThree = publishers.ticks(id).take(3).collectList().block(Duration.ofSeconds(5));

        assertThat(firstThree).containsExactly(0L, 1L, 2L);
        await().atMost(Duration.ofSeconds(5)).until(this::isFree);
    }

    @Test
    void notAcquiredCallsTheFallbackOrFailsThePublisher() {
        try (LockHandle elsewhere = lock.tryAcquire(key, ELSEWHERE).orElseThrow()) {
            assertThat(publishers.withFallback(id).block(Duration.ofSeconds(5))).isEqualTo("busy " + id);
            assertThatThrownBy(() -> publishers.noWait(id).collectList().block(Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(
                            LockNotAcquiredException.class,
                            e -> assertThat(e.key()).isEqualTo(key));
        }
        assertThat(publishers.runs(id)).isZero();
    }

    @Test
    void theCallerIsNotBlockedWhileTheKeyIsHeldElsewhere() throws Exception {
        LockHandle elsewhere = lock.tryAcquire(key, ELSEWHERE).orElseThrow();

        long start = System.nanoTime();
        CompletableFuture<String> call = publishers.mono(id, Mono.just("ran")).toFuture();
        // A blocked caller would return only after the release below, or after the 10 s wait: a loaded machine is slow,
        // never that slow.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(call).isNotDone();

        elsewhere.release();

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    @Test
    void aLeaseLostWhileTheFluxRunsFailsItWithLockLostAndCancelsTheWork() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<Long> call = publishers.endlessUnderShortLease(
                id, Flux.interval(Duration.ofMillis(50)).doOnCancel(() -> cancelled.set(true)));

        assertThatThrownBy(() -> call.blockLast(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(
                        LockLostException.class, e -> assertThat(e.key()).isEqualTo(key));
        await().atMost(Duration.ofSeconds(2)).untilTrue(cancelled);
    }

    @Test
    void aLossFoundOnlyAtReleaseFailsTheMonoWithLockLost() {
        Sinks.One<String> work = Sinks.one();
        CompletableFuture<String> call = publishers.mono(id, work.asMono()).toFuture();
        await().atMost(Duration.ofSeconds(5)).until(() -> publishers.runs(id) == 1);

        // A fixed lease is not renewed, so nothing notices the key is gone until the release.
        store.remove(key);
        work.tryEmitValue("finished");

        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOfSatisfying(
                        LockLostException.class,
                        e -> assertThat(e.reason()).isEqualTo(LockLostException.Reason.KEY_GONE));
    }

    @Test
    void theHandleIsInTheReactorContextAndInLockContextDuringTheSynchronousPart() {
        List<Long> tokens = publishers.tokens(id).block(Duration.ofSeconds(5));

        assertThat(tokens).hasSize(2).doesNotContainNull();
        assertThat(tokens.get(0)).isEqualTo(tokens.get(1));
    }

    @Test
    void aNestedLockedPublisherOnTheSameKeyRunsUnderTheOuterHold() {
        List<Long> tokens = outer.outerAndInner(id).block(Duration.ofSeconds(10));

        assertThat(tokens).hasSize(2);
        assertThat(tokens.get(0)).isEqualTo(tokens.get(1));
        assertThat(isFree()).isTrue();
    }

    @Test
    void concurrentMonoDeductionsUnderTheLockLoseNoUpdate() {
        int callers = 20;
        AtomicInteger stock = new AtomicInteger(callers);

        Flux.range(0, callers)
                .flatMap(i -> publishers.deduct(id, stock), callers)
                .then()
                .block(Duration.ofSeconds(40));

        assertThat(stock).hasValue(0);
    }

    @Test
    void concurrentFluxDeductionsUnderTheLockLoseNoUpdate() {
        int callers = 20;
        AtomicInteger stock = new AtomicInteger(callers);

        Flux.range(0, callers)
                .flatMap(i -> publishers.deductEach(id, stock), callers)
                .then()
                .block(Duration.ofSeconds(40));

        assertThat(stock).hasValue(0);
    }

    @Test
    void theSameMonoDeductionsWithoutTheLockLoseUpdates() {
        int callers = 20;
        AtomicInteger stock = new AtomicInteger(callers);

        Flux.range(0, callers)
                .flatMap(i -> Publishers.deductLater(stock), callers)
                .then()
                .block(Duration.ofSeconds(40));

        assertThat(stock.get()).isPositive();
    }

    private boolean isFree() {
        Optional<LockHandle> probe = lock.tryAcquire(key, ELSEWHERE);
        probe.ifPresent(LockHandle::release);
        return probe.isPresent();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        InMemoryLeaseStore store() {
            return new InMemoryLeaseStore();
        }

        @Bean
        Publishers publishers() {
            return new Publishers();
        }

        @Bean
        Outer outer(Publishers publishers) {
            return new Outer(publishers);
        }
    }

    static class Publishers {

        private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

        int runs(String id) {
            return ran(id).get();
        }

        private AtomicInteger ran(String id) {
            return runs.computeIfAbsent(id, any -> new AtomicInteger());
        }

        /** Reads, then writes a moment later: two callers in between both write the same value. */
        static Mono<Void> deductLater(AtomicInteger stock) {
            return Mono.fromCallable(stock::get)
                    .delayElement(Duration.ofMillis(20))
                    .doOnNext(read -> stock.set(read - 1))
                    .then();
        }

        @DistributedLock(key = "'reactive:' + #id", leaseSeconds = 30, waitSeconds = 10)
        public Mono<String> mono(String id, Mono<String> work) {
            ran(id).incrementAndGet();
            return work;
        }

        @DistributedLock(key = "'reactive:' + #id", leaseSeconds = 30, waitSeconds = 10)
        public Flux<String> flux(String id, Flux<String> work) {
            ran(id).incrementAndGet();
            return work;
        }

        @DistributedLock(key = "'reactive:' + #id", waitSeconds = 10)
        public Flux<Long> ticks(String id) {
            return Flux.interval(Duration.ofMillis(10));
        }

        @DistributedLock(key = "'reactive:' + #id", waitSeconds = 0, fallback = "busy")
        public Mono<String> withFallback(String id) {
            ran(id).incrementAndGet();
            return Mono.just("ran");
        }

        public Mono<String> busy(String id) {
            return Mono.just("busy " + id);
        }

        @DistributedLock(key = "'reactive:' + #id", waitSeconds = 0)
        public Flux<String> noWait(String id) {
            ran(id).incrementAndGet();
            return Flux.just("ran");
        }

        @DistributedLock(key = "'reactive:' + #id", leaseSeconds = 1, waitSeconds = 10)
        public Flux<Long> endlessUnderShortLease(String id, Flux<Long> work) {
            return work;
        }

        @DistributedLock(key = "'reactive:' + #id", leaseSeconds = 1, waitSeconds = 10)
        public Mono<String> neverUnderShortLease(String id, Mono<String> work) {
            return work;
        }

        @DistributedLock(key = "'counter:' + #id", leaseSeconds = 30, waitSeconds = 30)
        public Flux<Integer> deductEach(String id, AtomicInteger stock) {
            return deductLater(stock).thenMany(Flux.just(1, 2));
        }

        @DistributedLock(key = "'reactive:' + #id", waitSeconds = 10)
        public Mono<List<Long>> tokens(String id) {
            long seenInside =
                    LockContext.current("reactive:" + id).orElseThrow().fencingToken();
            return ReactiveLockContext.current("reactive:" + id).map(held -> List.of(seenInside, held.fencingToken()));
        }

        @DistributedLock(key = "'reactive:' + #id", waitSeconds = 1)
        public Mono<Long> innerToken(String id) {
            return ReactiveLockContext.current("reactive:" + id).map(LockHandle::fencingToken);
        }

        @DistributedLock(key = "'counter:' + #id", leaseSeconds = 30, waitSeconds = 30)
        public Mono<Void> deduct(String id, AtomicInteger stock) {
            return deductLater(stock);
        }
    }

    static class Outer {

        private final Publishers inner;

        Outer(Publishers inner) {
            this.inner = inner;
        }

        @DistributedLock(key = "'reactive:' + #id", waitSeconds = 10)
        public Mono<List<Long>> outerAndInner(String id) {
            return ReactiveLockContext.current("reactive:" + id)
                    .flatMap(held -> inner.innerToken(id).map(token -> List.of(held.fencingToken(), token)));
        }
    }
}
