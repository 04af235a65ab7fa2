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
import io.distlock.OnLockLost;
import io.distlock.memory.InMemoryLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

/**
 * {@code @DistributedLock} methods returning {@link CompletionStage} or {@link CompletableFuture}: the lock is taken
 * without blocking the caller and held until the returned stage completes. What the annotation does on any backend,
 * shown on the in-memory one, whose store the tests reach to remove a key behind its holder's back.
 */
@SpringBootTest(properties = "distlock.backend=in-memory")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncAnnotationTest {

    private static final Lease ELSEWHERE = Lease.fixed(Duration.ofSeconds(30));

    @Autowired
    private InMemoryLeaseStore store;

    @Autowired
    private Stages stages;

    @Autowired
    private Lock lock;

    private final String id = UUID.randomUUID().toString();
    private final String key = "stage:" + id;

    @Test
    void heldUntilTheReturnedFutureCompletes() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = stages.pending(id, work);

        await().atMost(Duration.ofSeconds(5)).until(() -> stages.runs(id) == 1);
        assertThat(isFree()).isFalse();
        assertThat(call).isNotDone();

        work.complete("done");

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(isFree()).isTrue();
    }

    @Test
    void theCallerIsNotBlockedWhileTheKeyIsHeldElsewhere() throws Exception {
        LockHandle elsewhere = lock.tryAcquire(key, ELSEWHERE).orElseThrow();
        CompletableFuture<String> work = CompletableFuture.completedFuture("ran");

        long start = System.nanoTime();
        CompletableFuture<String> call = stages.pending(id, work);
        Duration returnedAfter = Duration.ofNanos(System.nanoTime() - start);

        // A blocked caller would return only after the release below, or after the 10 s wait: a loaded machine is slow,
        // never that slow.
        assertThat(returnedAfter).isLessThan(Duration.ofSeconds(3));
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(call).isNotDone();
        assertThat(stages.runs(id)).isZero();

        elsewhere.release();

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    @Test
    void releasedWhenTheReturnedStageFails() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = stages.asStage(id, work).toCompletableFuture();
        await().atMost(Duration.ofSeconds(5)).until(() -> stages.runs(id) == 1);

        work.completeExceptionally(new IllegalStateException("out of stock"));

        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("out of stock");
        assertThat(isFree()).isTrue();
    }

    @Test
    void releasedWhenTheMethodThrowsBeforeReturningAStage() {
        CompletableFuture<String> call = stages.throwing(id);

        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .hasMessage("refused at once");
        assertThat(isFree()).isTrue();
    }

    @Test
    void cancellingTheReturnedFutureCancelsTheMethodsFutureAndReleases() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = stages.pending(id, work);
        await().atMost(Duration.ofSeconds(5)).until(() -> stages.runs(id) == 1);

        call.cancel(false);

        await().atMost(Duration.ofSeconds(5)).until(this::isFree);
        assertThat(work).isCancelled();
    }

    @Test
    void cancellingWhileWaitingEndsTheWaitAndTheMethodNeverRuns() {
        LockHandle elsewhere = lock.tryAcquire(key, ELSEWHERE).orElseThrow();
        CompletableFuture<String> call = stages.pending(id, CompletableFuture.completedFuture("ran"));

        call.cancel(false);
        elsewhere.release();

        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(stages.runs(id)).isZero();
        assertThat(isFree()).isTrue();
    }

    @Test
    void orTimeoutOnTheReturnedFutureReleasesTheLock() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = stages.pending(id, work).orTimeout(500, TimeUnit.MILLISECONDS);

        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(TimeoutException.class);
        await().atMost(Duration.ofSeconds(5)).until(this::isFree);
        assertThat(work).isCancelled();
    }

    @Test
    void notAcquiredCallsTheFallbackOrFailsTheStage() {
        try (LockHandle elsewhere = lock.tryAcquire(key, ELSEWHERE).orElseThrow()) {
            assertThat(stages.withFallback(id))
                    .succeedsWithin(Duration.ofSeconds(5))
                    .isEqualTo("busy " + id);

            CompletableFuture<String> call = stages.noWait(id);

            assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOfSatisfying(
                            LockNotAcquiredException.class,
                            e -> assertThat(e.key()).isEqualTo(key));
        }
        assertThat(stages.runs(id)).isZero();
    }

    @Test
    void aLeaseLostWhileTheStageRunsFailsItWithLockLostAndCancelsTheWork() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = stages.underShortLease(id, work);

        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(
                        LockLostException.class, e -> assertThat(e.key()).isEqualTo(key));
        assertThat(work).isCancelled();
    }

    @Test
    void aLossFoundOnlyAtReleaseFailsTheStageWithLockLost() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = stages.pending(id, work);
        await().atMost(Duration.ofSeconds(5)).until(() -> stages.runs(id) == 1);

        // A fixed lease is not renewed, so nothing notices the key is gone until the release.
        store.remove(key);
        work.complete("finished");

        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(
                        LockLostException.class,
                        e -> assertThat(e.reason()).isEqualTo(LockLostException.Reason.KEY_GONE));
    }

    @Test
    void aLossFoundAtReleaseIsLoggedUnderLogAndTheResultReturned() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = stages.underShortLeaseLogged(id, work);
        await().atMost(Duration.ofSeconds(5)).until(() -> stages.held() != null);

        await().atMost(Duration.ofSeconds(5)).until(() -> stages.held().isLost());
        assertThat(call).isNotDone();
        work.complete("finished");

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("finished");
    }

    @Test
    void theHandleIsVisibleThroughLockContextDuringTheSynchronousPart() throws Exception {
        assertThat(stages.tokenSeenInside(id).get(5, TimeUnit.SECONDS)).isPositive();
    }

    @Test
    void calledInsideAScopeThatHoldsItsKeyTheStageFailsAtOnceInsteadOfWaitingForItself() {
        try (LockHandle held = lock.tryAcquire(key, ELSEWHERE).orElseThrow();
                LockContext.Scope scope = LockContext.enter(held)) {
            CompletableFuture<String> call = stages.pending(id, CompletableFuture.completedFuture("ran"));

            assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("held by a scope of the calling thread");
        }
        assertThat(stages.runs(id)).isZero();
    }

    @Test
    void concurrentDeductionsUnderTheLockLoseNoUpdate() throws Exception {
        int callers = 20;
        Counter counter = new Counter(callers);
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            calls.add(stages.deduct(id, counter));
        }

        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(40, TimeUnit.SECONDS);

        assertThat(counter.value()).isZero();
    }

    @Test
    void theSameDeductionsWithoutTheLockLoseUpdates() throws Exception {
        int callers = 20;
        Counter counter = new Counter(callers);
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            calls.add(stages.deductUnlocked(counter));
        }

        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(40, TimeUnit.SECONDS);

        assertThat(counter.value()).isPositive();
    }

    private boolean isFree() {
        Optional<LockHandle> probe = lock.tryAcquire(key, ELSEWHERE);
        probe.ifPresent(LockHandle::release);
        return probe.isPresent();
    }

    /** A stock whose read and write are apart, in different stages, as a remote store's would be. */
    static final class Counter {
        private volatile int value;

        Counter(int value) {
            this.value = value;
        }

        int value() {
            return value;
        }

        CompletableFuture<Void> deductLater() {
            return CompletableFuture.supplyAsync(() -> value)
                    .thenApplyAsync(read -> read - 1, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS))
                    .thenAccept(written -> value = written);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        InMemoryLeaseStore store() {
            return new InMemoryLeaseStore();
        }

        @Bean
        Stages stages() {
            return new Stages();
        }
    }

    static class Stages {

        private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        private final AtomicReference<LockHandle> held = new AtomicReference<>();

        int runs(String id) {
            return ran(id).get();
        }

        private AtomicInteger ran(String id) {
            return runs.computeIfAbsent(id, any -> new AtomicInteger());
        }

        LockHandle held() {
            return held.get();
        }

        @DistributedLock(key = "'stage:' + #id", leaseSeconds = 30, waitSeconds = 10)
        public CompletableFuture<String> pending(String id, CompletableFuture<String> work) {
            ran(id).incrementAndGet();
            return work;
        }

        @DistributedLock(key = "'stage:' + #id", leaseSeconds = 30, waitSeconds = 10)
        public CompletionStage<String> asStage(String id, CompletableFuture<String> work) {
            ran(id).incrementAndGet();
            return work;
        }

        @DistributedLock(key = "'stage:' + #id", waitSeconds = 10)
        public CompletableFuture<String> throwing(String id) {
            throw new IllegalStateException("refused at once");
        }

        @DistributedLock(key = "'stage:' + #id", waitSeconds = 0, fallback = "busy")
        public CompletableFuture<String> withFallback(String id) {
            ran(id).incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        public CompletableFuture<String> busy(String id) {
            return CompletableFuture.completedFuture("busy " + id);
        }

        @DistributedLock(key = "'stage:' + #id", waitSeconds = 0)
        public CompletableFuture<String> noWait(String id) {
            ran(id).incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        @DistributedLock(key = "'stage:' + #id", leaseSeconds = 1, waitSeconds = 10, onLost = OnLockLost.THROW)
        public CompletableFuture<String> underShortLease(String id, CompletableFuture<String> work) {
            return work;
        }

        @DistributedLock(key = "'stage:' + #id", leaseSeconds = 1, waitSeconds = 10, onLost = OnLockLost.LOG)
        public CompletableFuture<String> underShortLeaseLogged(String id, CompletableFuture<String> work) {
            held.set(LockContext.current("stage:" + id).orElseThrow());
            return work;
        }

        @DistributedLock(key = "'stage:' + #id", waitSeconds = 10)
        public CompletableFuture<Long> tokenSeenInside(String id) {
            return CompletableFuture.completedFuture(
                    LockContext.current("stage:" + id).orElseThrow().fencingToken());
        }

        @DistributedLock(key = "'counter:' + #id", leaseSeconds = 30, waitSeconds = 30)
        public CompletableFuture<Void> deduct(String id, Counter counter) {
            return counter.deductLater();
        }

        public CompletableFuture<Void> deductUnlocked(Counter counter) {
            return counter.deductLater();
        }
    }
}
