package io.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link Lock} implementation promises, as a suite that an implementation's test extends; it runs
 * {@link MultiKeyContract} and {@link AsyncContract} too.
 *
 * <p>Each {@link #newClient()} must be an independent client of the same store (its own connections), standing for
 * another process. Keys are unique per test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // cases hold locks and scopes in try-with-resources blocks that never name them
public abstract class LockContract implements MultiKeyContract, AsyncContract {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Duration SHORT_WAIT = Duration.ofMillis(300);

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private String keyBase = "";

    /**
     * Creates an independent client of the store under test; the suite never closes it, the subclass does.
     *
     * @return a new lock client
     */
    @Override
    public abstract Lock newClient();

    @org.junit.jupiter.api.BeforeEach
    void nameKeys(TestInfo test) {
        keyBase = "contract:" + test.getTestMethod().orElseThrow().getName() + ":" + UUID.randomUUID() + ":";
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A key unique to this test run. */
    @Override
    public String key(String name) {
        return keyBase + name;
    }

    @Test
    void freeLockIsTakenAtOnceAndHeldLockFailsAtOnce() {
        Lock first = newClient();
        Lock second = newClient();
        String key = key("k");

        LockHandle held = first.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        long start = System.nanoTime();
        Optional<LockHandle> refused = onOtherThread(() -> second.tryAcquire(key, Lease.fixed(LONG)));

        assertThat(refused).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
        assertThat(held.isHeld()).isTrue();
        held.release();
        assertThat(second.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void waitingTryGivesUpWhenItsWaitEnds() throws Exception {
        Lock holder = newClient();
        Lock waiter = newClient();
        String key = key("k");
        holder.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();

        long start = System.nanoTime();
        Optional<LockHandle> result = waiter.tryAcquire(key, Lease.fixed(LONG), Duration.ofMillis(400));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(result).isEmpty();
        assertThat(waited).isBetween(Duration.ofMillis(400), Duration.ofMillis(900));
    }

    @Test
    void waiterGetsTheLockSoonAfterRelease() throws Exception {
        Lock holder = newClient();
        Lock waiter = newClient();
        String key = key("k");
        LockHandle held = holder.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();

        Future<LockHandle> waiting = threads.submit(
                () -> waiter.tryAcquire(key, Lease.fixed(LONG), LONG).orElseThrow());
        Thread.sleep(200);
        assertThat(waiting).isNotDone();
        long released = System.nanoTime();
        held.release();
        LockHandle acquired = waiting.get(10, TimeUnit.SECONDS);

        assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(Duration.ofSeconds(1));
        assertThat(acquired.isHeld()).isTrue();
    }

    @Test
    void blockingAcquireWaitsForRelease() throws Exception {
        Lock holder = newClient();
        Lock waiter = newClient();
        String key = key("k");
        LockHandle held = holder.acquire(key, Lease.fixed(LONG));

        Future<LockHandle> waiting = threads.submit(() -> waiter.acquire(key, Lease.fixed(LONG)));
        Thread.sleep(200);
        assertThat(waiting).isNotDone();
        held.release();

        assertThat(waiting.get(10, TimeUnit.SECONDS).isHeld()).isTrue();
    }

    @Test
    void expiredLeaseFreesTheLockAndItsHolderFindsOut() throws Exception {
        Lock crashed = newClient();
        Lock next = newClient();
        String key = key("k");
        LockHandle abandoned =
                crashed.tryAcquire(key, Lease.fixed(Duration.ofMillis(300))).orElseThrow();

        long start = System.nanoTime();
        LockHandle taken =
                next.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(5)).orElseThrow();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(abandoned.isLost()).isTrue();
        assertThat(taken.isHeld()).isTrue();
    }

    @Test
    void staleHolderCannotReleaseOrExtendNewOwnersLock() throws Exception {
        Lock stale = newClient();
        Lock current = newClient();
        String key = key("k");
        LockHandle old =
                stale.tryAcquire(key, Lease.fixed(Duration.ofMillis(200))).orElseThrow();
        LockHandle fresh = current.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(5))
                .orElseThrow();

        assertThatThrownBy(() -> old.extend(Duration.ofSeconds(10)))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining(key);
        assertThatThrownBy(old::release).isInstanceOf(LockLostException.class).hasMessageContaining(key);

        assertThat(fresh.isHeld()).isTrue();
        assertThat(fresh.remainingLease()).isGreaterThan(Duration.ofSeconds(20));
        assertThat(stale.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
    }

    @Test
    void onlyTheOwnerReleasesAndReleasingTwiceIsAnError() {
        Lock owner = newClient();
        Lock other = newClient();
        String key = key("k");
        LockHandle held = owner.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();

        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
        held.release();

        assertThatThrownBy(held::release)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already released");
        held.close();
        assertThat(held.isHeld()).isFalse();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void extendingMovesTheLeaseAndNeverTouchesOthers() {
        Lock lock = newClient();
        String key = key("k");
        LockHandle held =
                lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(2))).orElseThrow();

        held.extend(Duration.ofSeconds(20));

        assertThat(held.remainingLease()).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(20));
        held.release();
        assertThat(held.remainingLease()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> held.extend(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void acquisitionInsideAScopeOfTheHolderReentersAndTheLockIsFreedByTheLastRelease() throws Exception {
        Lock lock = newClient();
        Lock other = newClient();
        String key = key("k");

        LockHandle outer = lock.acquire(key, Lease.fixed(LONG));
        LockHandle inner;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            inner = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        }

        assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
        assertThat(inner.ownerToken()).isEqualTo(outer.ownerToken());
        inner.release();
        assertThat(outer.isHeld()).isTrue();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
        outer.release();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void nestedWorkOfCallWithLockReentersTheHeldKey() throws Exception {
        Lock lock = newClient();
        String key = key("k");

        long[] tokens = lock.callWithLock(key, Lease.fixed(LONG), Duration.ZERO, () -> {
            long outer = LockContext.current(key).orElseThrow().fencingToken();
            long nested = lock.callWithLock(
                    key,
                    Lease.fixed(LONG),
                    Duration.ZERO,
                    () -> LockContext.current(key).orElseThrow().fencingToken());
            return new long[] {outer, nested};
        });

        assertThat(tokens[1]).isEqualTo(tokens[0]);
        assertThat(newClient().tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void nestedReleaseInAnyOrderKeepsTheLockUntilTheLastHandle() {
        Lock lock = newClient();
        Lock other = newClient();
        String key = key("k");
        LockHandle outer = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        LockHandle inner;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            inner = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        }

        outer.release();
        assertThat(inner.isHeld()).isTrue();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
        inner.release();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void anotherThreadOfTheSameClientIsAnotherOwner() {
        Lock lock = newClient();
        String key = key("k");
        lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();

        assertThat(onOtherThread(() -> lock.tryAcquire(key, Lease.fixed(LONG)))).isEmpty();
    }

    @Test
    void sameThreadOutsideAScopeIsAnotherOwnerSoAHandedOffHandleNeverMeetsATwin() throws Exception {
        Lock lock = newClient();
        String key = key("k");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // The pool thread acquires, hands the handle to a stage running elsewhere, and goes back to the pool.
            LockHandle handedOff =
                    pool.submit(() -> lock.acquire(key, Lease.fixed(LONG))).get(10, TimeUnit.SECONDS);
            CountDownLatch stageDone = new CountDownLatch(1);
            CompletableFuture<Void> stage = CompletableFuture.runAsync(
                    () -> {
                        try (handedOff) {
                            stageDone.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    threads);

            // The pool thread's next task wants the same key: it must wait like anyone else, not re-enter.
            Optional<LockHandle> nextTask = pool.submit(() -> lock.tryAcquire(key, Lease.fixed(LONG), SHORT_WAIT))
                    .get(10, TimeUnit.SECONDS);
            assertThat(nextTask).as("second holder while the stage still works").isEmpty();

            stageDone.countDown();
            stage.get(10, TimeUnit.SECONDS);
            Optional<LockHandle> afterStage =
                    pool.submit(() -> lock.tryAcquire(key, Lease.fixed(LONG))).get(10, TimeUnit.SECONDS);
            assertThat(afterStage).isPresent();
            assertThat(afterStage.get().fencingToken()).isGreaterThan(handedOff.fencingToken());
            afterStage.get().release();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void expiredOrAbandonedHoldsNeverBlockTheirThreadsLaterAcquisitions() throws Exception {
        Lock lock = newClient();
        String key = key("k");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            LockHandle expired = pool.submit(() -> lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(100)))
                            .orElseThrow())
                    .get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(5)).until(expired::isLost);

            // Later, independent tasks of the same pool thread get fresh locks; the stale handle is never released.
            for (int task = 0; task < 3; task++) {
                LockHandle fresh = pool.submit(
                                () -> lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow())
                        .get(10, TimeUnit.SECONDS);
                assertThat(fresh.fencingToken()).isGreaterThan(expired.fencingToken());
                assertThat(fresh.isLost()).isFalse();
                pool.submit(fresh::release).get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void nestedAcquisitionOfALostHoldThrows() throws Exception {
        Lock lock = newClient();
        String key = key("k");
        LockHandle outer =
                lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(100))).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(outer::isLost);

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LONG)))
                    .isInstanceOf(LockLostException.class)
                    .hasMessageContaining(key);
        }
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
        assertThat(lock.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void fencingTokensStrictlyIncreaseAcrossClients() {
        Lock first = newClient();
        Lock second = newClient();
        String key = key("k");
        long previous = 0;
        for (int i = 0; i < 20; i++) {
            Lock client = i % 2 == 0 ? first : second;
            try (LockHandle held = client.tryAcquire(key, Lease.fixed(LONG)).orElseThrow()) {
                assertThat(held.fencingToken()).isGreaterThan(previous);
                previous = held.fencingToken();
            }
        }
    }

    @Test
    void handleCanBeReleasedFromAnotherThread() throws Exception {
        Lock lock = newClient();
        Lock other = newClient();
        String key = key("k");
        LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();

        CompletableFuture.runAsync(held::release, threads).get(10, TimeUnit.SECONDS);

        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void interruptedWaiterStopsWaitingAndHoldsNothing() throws Exception {
        Lock holder = newClient();
        Lock waiter = newClient();
        String key = key("k");
        LockHandle held = holder.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread waiting = new Thread(() -> {
            try {
                waiter.acquire(key, Lease.fixed(LONG));
            } catch (Throwable e) {
                outcome.set(e);
            } finally {
                done.countDown();
            }
        });
        waiting.start();
        Thread.sleep(200);

        waiting.interrupt();

        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
        held.release();
        assertThat(holder.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void alreadyInterruptedThreadDoesNotWait() {
        Lock lock = newClient();
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> lock.acquire(key("k"), Lease.fixed(LONG))).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isFalse();
    }

    @Test
    void interruptedThreadStillChecksExtendsAndReleasesItsLock() {
        Lock lock = newClient();
        String key = key("k");
        LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        Thread.currentThread().interrupt();
        try {
            assertThat(held.isHeld()).isTrue();
            held.extend(LONG);
            held.release();
            assertThat(Thread.currentThread().isInterrupted())
                    .as("interrupt status kept")
                    .isTrue();
        } finally {
            Thread.interrupted();
        }
        Optional<LockHandle> next = newClient().tryAcquire(key, Lease.fixed(LONG));
        assertThat(next).as("released while interrupted").isPresent();
        next.get().release();
    }

    @Test
    void callbackReleasesAfterSuccessAndAfterFailure() throws Exception {
        Lock lock = newClient();
        Lock other = newClient();
        String key = key("k");

        String result = lock.callWithLock(key, Lease.fixed(LONG), Duration.ZERO, () -> {
            assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
            return "done";
        });
        assertThat(result).isEqualTo("done");

        assertThatThrownBy(() -> lock.runWithLock(key, Lease.fixed(LONG), Duration.ZERO, () -> {
                    throw new java.io.IOException("work failed");
                }))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("work failed");
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void callbackDoesNotRunWithoutTheLock() {
        Lock holder = newClient();
        Lock lock = newClient();
        String key = key("k");
        holder.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        AtomicBoolean ran = new AtomicBoolean();

        assertThatThrownBy(() -> lock.runWithLock(key, Lease.fixed(LONG), Duration.ofMillis(100), () -> ran.set(true)))
                .isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining(key)
                .satisfies(
                        e -> assertThat(((LockNotAcquiredException) e).waited()).isEqualTo(Duration.ofMillis(100)));
        assertThat(ran).isFalse();
    }

    @Test
    void callbackReportsALockLostDuringTheWork() {
        Lock lock = newClient();
        String key = key("k");

        assertThatThrownBy(() -> lock.callWithLock(key, Lease.fixed(Duration.ofMillis(100)), Duration.ZERO, () -> {
                    Thread.sleep(250);
                    return "late";
                }))
                .isInstanceOf(LockLostException.class)
                .satisfies(e ->
                        assertThat(((LockLostException) e).reason()).isEqualTo(LockLostException.Reason.LEASE_EXPIRED));
    }

    @Test
    void lostCallbackFiresOnceWhenAFixedLeaseRunsOut() throws Exception {
        Lock lock = newClient();
        LockHandle held =
                lock.tryAcquire(key("k"), Lease.fixed(Duration.ofMillis(200))).orElseThrow();
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch fired = new CountDownLatch(1);

        held.onLost(lost -> {
            calls.incrementAndGet();
            fired.countDown();
        });

        assertThat(fired.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(held.isLost()).isTrue();
        Thread.sleep(100);
        assertThat(calls).hasValue(1);
    }

    /** A callback runs on an internal thread, as {@link LockHandle#onLost} says, even when registered after the loss. */
    @Test
    void lostCallbackRunsOnAThreadOfTheLocksOwnNeverTheCallers() throws Exception {
        Lock lock = newClient();
        LockHandle held =
                lock.tryAcquire(key("k"), Lease.fixed(Duration.ofMillis(100))).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(held::isLost);
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();

        held.onLost(lost -> ranOn.complete(Thread.currentThread()));

        assertThat(ranOn.get(5, TimeUnit.SECONDS)).isNotSameAs(Thread.currentThread());
    }

    @Test
    void lostCallbackNeverFiresAfterANormalRelease() throws Exception {
        Lock lock = newClient();
        LockHandle held =
                lock.tryAcquire(key("k"), Lease.fixed(Duration.ofMillis(200))).orElseThrow();
        AtomicInteger calls = new AtomicInteger();
        held.onLost(lost -> calls.incrementAndGet());

        held.release();
        Thread.sleep(400);

        assertThat(calls).hasValue(0);
        assertThat(held.isLost()).isFalse();
    }

    @Test
    void mutualExclusionHoldsAcrossThreadsAndClients() throws Exception {
        Lock first = newClient();
        Lock second = newClient();
        String key = key("counter");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        int threadCount = 8;
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            Lock client = t % 2 == 0 ? first : second;
            workers.add(threads.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    try (LockHandle held = client.acquire(key, Lease.fixed(LONG))) {
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        entries.incrementAndGet();
                        Thread.yield();
                        inside.decrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get(60, TimeUnit.SECONDS);
        }

        assertThat(entries).hasValue(threadCount * 40);
        assertThat(overlaps).hasValue(0);
    }

    @Test
    void javaLockViewIsThreadOwnedAndReentrant() throws Exception {
        Lock lock = newClient();
        Lock other = newClient();
        String key = key("k");
        java.util.concurrent.locks.Lock view = lock.asJavaLock(key, Lease.fixed(LONG));

        view.lock();
        assertThat(view.tryLock()).isTrue();
        boolean lockedElsewhere = onOtherThread(view::tryLock);
        assertThat(lockedElsewhere).isFalse();
        assertThatThrownBy(() -> onOtherThread(() -> {
                    view.unlock();
                    return null;
                }))
                .hasRootCauseInstanceOf(IllegalMonitorStateException.class);
        view.unlock();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
        view.unlock();
        assertThat(view.tryLock(1, TimeUnit.SECONDS)).isTrue();
        view.unlock();
        assertThatThrownBy(view::unlock).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(view::newCondition).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void invalidArgumentsNameWhatIsWrong() {
        Lock lock = newClient();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(null))
                .withMessageContaining("key");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(" "))
                .withMessageContaining("blank");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire("x".repeat(Lock.MAX_KEY_LENGTH + 1)))
                .withMessageContaining("at most " + Lock.MAX_KEY_LENGTH);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(key("k"), (Lease) null))
                .withMessageContaining("lease");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(key("k"), Duration.ofMillis(-1)))
                .withMessageContaining("wait");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(key("k"), Lease.fixed(LONG), null))
                .withMessageContaining("wait");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Lease.fixed(Duration.ZERO))
                .withMessageContaining("at least 1 ms");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Lease.fixed(Duration.ofSeconds(-5)))
                .withMessageContaining("at least 1 ms");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Lease.fixed(Duration.ofDays(400)))
                .withMessageContaining("at most");
        assertThat(lock.tryAcquire(key("k"), Lease.fixed(LONG))).isPresent();
    }

    /**
     * Runs the call on another thread of this suite and waits for it, up to 30 seconds.
     *
     * @param call what to run
     * @param <T> what it returns
     * @return what the call returned
     */
    protected <T> T onOtherThread(java.util.concurrent.Callable<T> call) {
        try {
            return threads.submit(call).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
