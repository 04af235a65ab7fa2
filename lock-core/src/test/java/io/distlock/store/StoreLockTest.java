package io.distlock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.monitor.BackendState;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@link StoreLock} adds to a store, beyond the contract every lock passes (lock-tck's {@code LockContract}):
 * renewals, the loss a renewal finds, shutdown, observation and inspection. On the in-memory store, whose keys the tests can remove behind
 * the lock's back; the engine is the same over every store.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoreLockTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final List<StoreLock> locks = new CopyOnWriteArrayList<>();
    private final String key = "store-lock:" + UUID.randomUUID();

    @AfterEach
    void closeLocks() {
        locks.forEach(StoreLock::close);
    }

    private StoreLock lock(Duration watchdogLease, LockObserver observer) {
        StoreLock lock = StoreLock.builder(store)
                .watchdogLease(watchdogLease)
                .shutdownGracePeriod(Duration.ZERO)
                .observer(observer)
                .build();
        locks.add(lock);
        return lock;
    }

    private StoreLock lock() {
        return lock(LONG, LockObserver.NONE);
    }

    @Test
    void aRenewedLeaseOutlivesItsWatchdogLeaseWhileHeldAndEndsWithTheHolder() throws Exception {
        StoreLock holder = lock(Duration.ofMillis(300), LockObserver.NONE);
        StoreLock other = lock();
        LockHandle held = holder.tryAcquire(key, Lease.renewed()).orElseThrow();

        Thread.sleep(1_000);

        assertThat(held.isHeld()).isTrue();
        assertThat(held.isLost()).isFalse();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG)))
                .as("taken while renewed")
                .isEmpty();
        held.release();
        assertThat(other.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    @Test
    void aRenewedHoldIsRenewedUntilTheMaxHoldAndReportedLostOnceItsLeaseRanOut() throws Exception {
        StoreLock holder = StoreLock.builder(store)
                .watchdogLease(Duration.ofSeconds(3))
                .maxHold(Duration.ofSeconds(5))
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        locks.add(holder);
        long start = System.nanoTime();
        LockHandle held = holder.tryAcquire(key, Lease.renewed()).orElseThrow();
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        held.onLost(lost::complete);

        LockLostException reported = lost.get(30, TimeUnit.SECONDS);

        assertThat(reported.reason()).isEqualTo(LockLostException.Reason.MAX_HOLD_REACHED);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("renewed past its 3 s watchdog lease, up to the maximum hold")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(5));
        assertThat(held.isLost()).isTrue();
        StoreLock other = lock();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> other.tryAcquire(key, Lease.fixed(LONG)).isPresent());
        assertThatThrownBy(() -> StoreLock.builder(store)
                        .watchdogLease(Duration.ofSeconds(1))
                        .maxHold(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max hold must be longer than the watchdog lease");
    }

    @Test
    void aRenewalThatFindsTheKeyTakenReportsTheLockLostOnce() throws Exception {
        StoreLock holder = lock(Duration.ofMillis(600), LockObserver.NONE);
        LockHandle held = holder.tryAcquire(key, Lease.renewed()).orElseThrow();
        List<LockLostException> reported = new CopyOnWriteArrayList<>();
        held.onLost(reported::add);

        store.remove(key);
        lock().tryAcquire(key, Lease.fixed(LONG)).orElseThrow();

        // Callbacks run on a worker thread of the lock's, so the report may follow isLost() by a moment.
        await().atMost(Duration.ofSeconds(5)).until(held::isLost);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(reported)
                        .singleElement()
                        .satisfies(lost -> assertThat(lost.reason()).isEqualTo(LockLostException.Reason.KEY_GONE)));
        assertThat(held.isHeld()).isFalse();
        assertThatThrownBy(held::release).isInstanceOf(LockLostException.class).hasMessageContaining(key);
        assertThat(reported)
                .as("reports of the loss, after the release that found it")
                .hasSize(1);
    }

    @Test
    void aReleaseThatFindsTheKeyGoneThrowsAndReportsTheLoss() throws Exception {
        StoreLock holder = lock();
        LockHandle held = holder.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        AtomicReference<LockLostException> reported = new AtomicReference<>();
        held.onLost(reported::set);

        store.remove(key);

        assertThatThrownBy(held::release).isInstanceOf(LockLostException.class).hasMessageContaining(key);
        assertThat(held.isLost()).isTrue();
        // Callbacks run on a worker thread of the lock's, not on the releasing one.
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(reported.get()).isNotNull());
    }

    @Test
    void closingTheLockReportsTheHoldsStillOpenLostAndRefusesNewAcquisitions() {
        StoreLock lock = lock();
        LockHandle held = lock.tryAcquire(key, Lease.renewed()).orElseThrow();

        lock.close();

        assertThat(held.isLost()).isTrue();
        assertThatThrownBy(held::release)
                .isInstanceOf(LockLostException.class)
                .satisfies(e ->
                        assertThat(((LockLostException) e).reason()).isEqualTo(LockLostException.Reason.CLIENT_CLOSED));
        assertThatThrownBy(() -> lock.tryAcquire(key + ":2", Lease.fixed(LONG)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void theObserverSeesAcquisitionsHoldsAndTheirEnds() {
        List<String> seen = new CopyOnWriteArrayList<>();
        StoreLock lock = lock(LONG, new LockObserver() {
            @Override
            public Acquisition acquisitionStarted(String key, LockKind kind) {
                return new Acquisition() {
                    @Override
                    public void acquired() {
                        seen.add("acquired " + kind);
                    }

                    @Override
                    public void notAcquired() {
                        seen.add("not acquired");
                    }
                };
            }

            @Override
            public Holding holdStarted(String key, LockKind kind, long fencingToken) {
                return new Holding() {
                    @Override
                    public void released() {
                        seen.add("released");
                    }
                };
            }
        });

        LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        assertThat(lock.tryAcquire(key, Lease.fixed(LONG)))
                .as("another owner, outside the holder's scope")
                .isEmpty();
        held.release();

        assertThat(seen).containsExactly("acquired EXCLUSIVE", "not acquired", "released");
    }

    @Test
    void aSemaphoresPermitsAreListedAmongTheLocksHoldsAsPermitsAndSeenAsSuch() {
        List<String> seen = new CopyOnWriteArrayList<>();
        StoreLock lock = lock(Duration.ofSeconds(30), new LockObserver() {
            @Override
            public Holding holdStarted(String key, LockKind kind, long fencingToken) {
                seen.add("held " + kind);
                return new Holding() {};
            }
        });
        LockHandle locked = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        LockHandle permit = Kind.SEMAPHORE
                .of(lock)
                .permits(2)
                .tryAcquire(key, Lease.fixed(LONG))
                .orElseThrow();

        assertThat(lock.heldLocks())
                .extracting(HeldLock::kind, HeldLock::fencingToken)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(LockKind.EXCLUSIVE, locked.fencingToken()),
                        org.assertj.core.groups.Tuple.tuple(LockKind.SEMAPHORE, permit.fencingToken()));
        assertThat(lock.heldCount()).isEqualTo(2);
        assertThat(seen).containsExactly("held EXCLUSIVE", "held SEMAPHORE");

        permit.release();
        assertThat(lock.heldLocks()).extracting(HeldLock::kind).containsExactly(LockKind.EXCLUSIVE);
        locked.release();
    }

    @Test
    void inspectionShowsHoldsWaitersTheKeysLeaseAndAHealthyStore() throws Exception {
        StoreLock lock = lock();
        StoreLock waiter = lock();
        LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try {
            Future<?> waiting = threads.submit(() -> waiter.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(10)));
            await().atMost(Duration.ofSeconds(5)).until(() -> waiter.waitingCount() == 1);

            assertThat(waiter.waitingThreads()).containsEntry(key, 1);
            HeldLock view = lock.heldLocks().get(0);
            assertThat(view.key()).isEqualTo(key);
            assertThat(view.fencingToken()).isEqualTo(held.fencingToken());
            assertThat(view.renewed()).isFalse();
            assertThat(lock.keyState(key).held()).isTrue();
            assertThat(lock.keyState(key).heldByThisInstance()).isTrue();
            assertThat(waiter.keyState(key).heldByThisInstance()).isFalse();
            assertThat(lock.keyState(key).remainingLease()).isBetween(Duration.ofSeconds(20), LONG);
            BackendState state = lock.checkBackend();
            assertThat(state.isHealthy()).isTrue();
            assertThat(state.subscription()).isEqualTo(BackendState.Subscription.NONE);

            held.release();
            waiting.get(10, TimeUnit.SECONDS);
            assertThat(lock.heldCount()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aThreadHoldingTheKeyThroughAJavaLockReentersItThroughAnyViewOrPlainAndIsNamedAsItsOwner() throws Exception {
        StoreLock lock = lock();
        java.util.concurrent.locks.Lock view = lock.asJavaLock(key, Lease.fixed(LONG));
        java.util.concurrent.locks.Lock secondView = lock.asJavaLock(key, Lease.fixed(LONG));
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try {
            view.lock();
            LockHandle plain = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
            assertThat(secondView.tryLock()).isTrue();

            assertThat(plain.fencingToken())
                    .as("the same hold")
                    .isEqualTo(lock.heldLocks().get(0).fencingToken());
            assertThat(lock.heldLocks()).singleElement().satisfies(held -> {
                assertThat(held.boundThread()).isEqualTo(Thread.currentThread().getName());
                assertThat(held.handles()).isEqualTo(3);
            });
            assertThat(threads.submit(() ->
                                    lock.tryAcquire(key, Lease.fixed(LONG)).isPresent())
                            .get(10, TimeUnit.SECONDS))
                    .as("another thread is another owner")
                    .isFalse();

            secondView.unlock();
            plain.release();
            view.unlock();
            assertThat(lock.heldCount()).isZero();
            assertThat(lock.tryAcquire(key, Lease.fixed(LONG)))
                    .as("a plain hold again")
                    .isPresent();
        } finally {
            threads.shutdownNow();
        }
    }
}
