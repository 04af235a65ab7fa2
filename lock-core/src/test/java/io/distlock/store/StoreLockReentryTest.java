package io.distlock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How {@link StoreLock} asks the store before a nested acquisition joins a hold: every time, within the caller's wait
 * or the store's call timeout, and with a hold the store no longer grants reported lost. On the in-memory store, whose
 * answers a test holds back, fails or replaces.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // the scopes are what the nested acquisitions re-enter, never named in their blocks
class StoreLockReentryTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    /** What a bound allows on top of its own length, on a loaded machine of two cores. */
    private static final Duration MARGIN = Duration.ofMillis(800);

    private final AskedStore store = new AskedStore(Duration.ofMillis(700));
    private final List<StoreLock> locks = new CopyOnWriteArrayList<>();
    private final String key = "reentry:" + UUID.randomUUID();

    @AfterEach
    void closeLocks() {
        store.gate.countDown();
        locks.forEach(StoreLock::close);
    }

    private StoreLock lock(LockObserver observer) {
        StoreLock lock = StoreLock.builder(store)
                .shutdownGracePeriod(Duration.ZERO)
                .observer(observer)
                .build();
        locks.add(lock);
        return lock;
    }

    private StoreLock lock() {
        return lock(LockObserver.NONE);
    }

    @Test
    void everyNestedAcquisitionAsksTheStoreAndSharesTheHold() throws Exception {
        StoreLock lock = lock();
        LockHandle outer = lock.acquire(key, LONG);

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            LockHandle withoutWait = lock.tryAcquire(key, LONG).orElseThrow();
            LockHandle waiting =
                    lock.tryAcquire(key, LONG, Duration.ofSeconds(1)).orElseThrow();
            LockHandle blocking = lock.acquire(key, LONG);
            assertThat(List.of(withoutWait, waiting, blocking))
                    .extracting(LockHandle::fencingToken)
                    .containsOnly(outer.fencingToken());
            withoutWait.release();
            waiting.release();
            blocking.release();
        }

        assertThat(store.checks).as("the store's confirmations asked for").hasValue(3);
        assertThat(outer.isHeld()).isTrue();
        outer.release();
        assertThat(lock().tryAcquire(key, LONG))
                .as("the key after the last release")
                .isPresent();
    }

    @Test
    void aHoldTheStoreNoLongerGrantsFailsTheNestedAcquisitionAndIsReportedLostThroughTheUsualPath() throws Exception {
        List<Reason> observed = new CopyOnWriteArrayList<>();
        StoreLock lock = lock(lostReasons(observed));
        LockHandle outer = lock.acquire(key, LONG);
        CompletableFuture<LockLostException> callback = new CompletableFuture<>();
        outer.onLost(callback::complete);
        assertThat(store.memory.remove(key)).isTrue();

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofSeconds(1)))
                    .isInstanceOfSatisfying(
                            LockLostException.class,
                            lost -> assertThat(lost.reason()).isEqualTo(Reason.KEY_GONE));
        }

        assertThat(outer.isLost()).isTrue();
        assertThat(callback).succeedsWithin(Duration.ofSeconds(10));
        assertThat(observed).containsExactly(Reason.KEY_GONE);
        assertThat(lock.heldCount()).as("holds the lock still counts").isZero();
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
    }

    @Test
    void theLossIsReportedWithTheReasonTheStoreGives() throws Exception {
        StoreLock lock = lock();
        LockHandle outer = lock.acquire(key, LONG);
        store.answer = lease -> Optional.of(Reason.CONNECTION_SUSPENDED);

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            assertThatThrownBy(() -> lock.acquire(key, LONG))
                    .isInstanceOfSatisfying(
                            LockLostException.class,
                            lost -> assertThat(lost.reason()).isEqualTo(Reason.CONNECTION_SUSPENDED));
        }
        assertThat(outer.isLost()).isTrue();
    }

    @Test
    void aStoreThatCannotAnswerFailsTheNestedAcquisitionWithLockBackendExceptionAndJoinsNothing() throws Exception {
        StoreLock lock = lock();
        LockHandle outer = lock.acquire(key, LONG);
        store.answer = lease -> {
            throw new LockBackendException(key, "the test's store cannot be reached", null);
        };

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("cannot be reached");
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofSeconds(1)))
                    .isInstanceOf(LockBackendException.class);
        }

        assertThat(outer.isLost())
                .as("a store that cannot answer says nothing of the hold")
                .isFalse();
        assertFreedByItsOnlyRelease(outer);
    }

    @Test
    void aNestedTryWithoutAWaitWaitsForTheAnswerUpToTheCallTimeoutNotJustTheGrace() throws Exception {
        StoreLock lock = lock();
        LockHandle outer = lock.acquire(key, LONG);
        store.holdAnswersBack();

        long start = System.nanoTime();
        Throwable failure;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            failure = catchThrowable(() -> lock.tryAcquire(key, LONG));
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(failure)
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("within 700 ms (the store's call timeout)");
        assertThat(took)
                .isBetween(Duration.ofMillis(650), Duration.ofMillis(700).plus(MARGIN));
        store.letAnswersGo();
        assertFreedByItsOnlyRelease(outer);
    }

    @Test
    void aNestedWaitingAcquisitionGivesUpOnTheAnswerAtTheEndOfItsWait() throws Exception {
        AskedStore slowToTimeOut = new AskedStore(Duration.ofSeconds(15));
        StoreLock lock = StoreLock.builder(slowToTimeOut)
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        locks.add(lock);
        LockHandle outer = lock.acquire(key, LONG);
        slowToTimeOut.holdAnswersBack();

        long start = System.nanoTime();
        Throwable failure;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            failure = catchThrowable(() -> lock.tryAcquire(key, LONG, Duration.ofMillis(300)));
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        slowToTimeOut.letAnswersGo();

        assertThat(failure).isInstanceOf(LockBackendException.class).hasMessageContaining("(the caller's wait)");
        assertThat(took).isLessThanOrEqualTo(Duration.ofMillis(400).plus(MARGIN));
        outer.release();
    }

    @Test
    void anAnswerThatComesAfterTheCallerGaveUpStillReportsTheLoss() throws Exception {
        StoreLock lock = lock();
        LockHandle outer = lock.acquire(key, LONG);
        store.holdAnswersBack();
        assertThat(store.memory.remove(key)).isTrue();

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG, Duration.ofMillis(100)))
                    .isInstanceOf(LockBackendException.class);
        }
        assertThat(outer.isLost()).as("before the store answered").isFalse();
        store.letAnswersGo();

        await().atMost(Duration.ofSeconds(10)).until(outer::isLost);
    }

    @Test
    void anInterruptWhileAskingEndsAWaitingNestedAcquisitionAndJoinsNothing() throws Exception {
        StoreLock lock = lock();
        LockHandle outer = lock.acquire(key, LONG);
        store.holdAnswersBack();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread nested = new Thread(() -> {
            try (LockContext.Scope scope = LockContext.enter(outer)) {
                lock.acquire(key, LONG);
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        nested.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.checks.get() == 1);

        nested.interrupt();

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        store.letAnswersGo();
        assertFreedByItsOnlyRelease(outer);
    }

    @Test
    void anInterruptDoesNotEndANestedTryWithoutAWaitAndStaysSet() throws Exception {
        StoreLock lock = lock();
        LockHandle outer = lock.acquire(key, LONG);
        store.holdAnswersBack();
        CompletableFuture<Boolean> stillInterrupted = new CompletableFuture<>();
        CompletableFuture<Optional<LockHandle>> nestedHandle = new CompletableFuture<>();
        Thread nested = new Thread(() -> {
            try (LockContext.Scope scope = LockContext.enter(outer)) {
                nestedHandle.complete(lock.tryAcquire(key, LONG));
            } catch (Throwable e) {
                nestedHandle.completeExceptionally(e);
            }
            stillInterrupted.complete(Thread.currentThread().isInterrupted());
        });
        nested.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.checks.get() == 1);

        nested.interrupt();
        store.letAnswersGo();

        assertThat(nestedHandle.get(10, TimeUnit.SECONDS)).isPresent();
        assertThat(stillInterrupted.get(10, TimeUnit.SECONDS)).isTrue();
        nestedHandle.get().orElseThrow().release();
        assertFreedByItsOnlyRelease(outer);
    }

    /** The outer handle is the hold's only open one: its release frees the key for another client at once. */
    private void assertFreedByItsOnlyRelease(LockHandle outer) {
        outer.release();
        assertThat(lock().tryAcquire(key, LONG))
                .as("the key after the outer handle's release: a failed re-entry must not stay counted on the hold")
                .isPresent();
    }

    private static LockObserver lostReasons(List<Reason> reasons) {
        return new LockObserver() {
            @Override
            public Holding holdStarted(String key, LockKind kind, long fencingToken) {
                return new Holding() {
                    @Override
                    public void lost(Reason reason) {
                        reasons.add(reason);
                    }
                };
            }
        };
    }

    /** The in-memory store, whose answers to {@link StoreLease#checkOwned()} a test holds back, fails or replaces. */
    private static final class AskedStore implements LeaseStore {

        final InMemoryLeaseStore memory = new InMemoryLeaseStore();
        final AtomicInteger checks = new AtomicInteger();
        volatile CountDownLatch gate = new CountDownLatch(0);
        volatile Function<StoreLease, Optional<Reason>> answer = StoreLease::checkOwned;
        private final Duration callTimeout;

        AskedStore(Duration callTimeout) {
            this.callTimeout = callTimeout;
        }

        void holdAnswersBack() {
            gate = new CountDownLatch(1);
        }

        void letAnswersGo() {
            gate.countDown();
        }

        @Override
        public Acquisition begin(String key, String owner, Duration lease) {
            Acquisition acquisition = memory.begin(key, owner, lease);
            return new Acquisition() {
                @Override
                public @Nullable StoreLease tryTake() {
                    StoreLease granted = acquisition.tryTake();
                    return granted == null ? null : new AskedLease(granted);
                }

                @Override
                public void awaitChance(long deadlineNanos) throws InterruptedException {
                    acquisition.awaitChance(deadlineNanos);
                }

                @Override
                public void close() {
                    acquisition.close();
                }
            };
        }

        @Override
        public Duration callTimeout() {
            return callTimeout;
        }

        @Override
        public Optional<Duration> remainingLease(String key) {
            return memory.remainingLease(key);
        }

        @Override
        public void ping() {}

        @Override
        public String describe() {
            return "the test's store";
        }

        @Override
        public void close() {}

        /** A grant of the in-memory store whose confirmations go through the test's gate and answer. */
        private final class AskedLease implements StoreLease {

            private final StoreLease granted;

            AskedLease(StoreLease granted) {
                this.granted = granted;
            }

            @Override
            public long fencingToken() {
                return granted.fencingToken();
            }

            @Override
            public boolean extend(Duration lease) {
                return granted.extend(lease);
            }

            @Override
            public Optional<Reason> checkOwned() {
                checks.incrementAndGet();
                try {
                    if (!gate.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never let the answer go");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                return answer.apply(granted);
            }

            @Override
            public boolean release() {
                return granted.release();
            }
        }
    }
}
