package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises about leases and their loss: a lease that runs out frees the key and its holder
 * finds out, a stale holder touches nothing, extensions move only its own lease, and loss is reported once, on a thread
 * of the lock's own; {@link LockContract} runs it for each implementation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // cases hold scopes in try-with-resources blocks that never name them
public interface LeaseContract extends ContractSubject {

    /** A lease that runs out frees the key for the next client, and its holder sees the loss. */
    @Test
    default void expiredLeaseFreesTheLockAndItsHolderFindsOut() throws Exception {
        Lock crashed = connectedClient();
        Lock next = connectedClient();
        String key = key("k");
        LockHandle abandoned =
                crashed.tryAcquire(key, Lease.fixed(Duration.ofMillis(300))).orElseThrow();

        long start = System.nanoTime();
        LockHandle taken =
                next.tryAcquire(key, LONG_LEASE, Duration.ofSeconds(5)).orElseThrow();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(abandoned.isLost()).isTrue();
        assertThat(taken.isHeld()).isTrue();
    }

    /** A holder whose lease ran out can neither release nor extend the new owner's hold. */
    @Test
    default void staleHolderCannotReleaseOrExtendNewOwnersLock() throws Exception {
        Lock stale = connectedClient();
        Lock current = connectedClient();
        String key = key("k");
        LockHandle old =
                stale.tryAcquire(key, Lease.fixed(Duration.ofMillis(200))).orElseThrow();
        LockHandle fresh =
                current.tryAcquire(key, LONG_LEASE, Duration.ofSeconds(5)).orElseThrow();

        assertThatThrownBy(() -> old.extend(Duration.ofSeconds(10)))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining(key);
        assertThatThrownBy(old::release).isInstanceOf(LockLostException.class).hasMessageContaining(key);

        assertThat(fresh.isHeld()).isTrue();
        assertThat(fresh.remainingLease()).isGreaterThan(Duration.ofSeconds(20));
        assertThat(stale.tryAcquire(key, LONG_LEASE)).isEmpty();
    }

    /** An extension sets the holder's own lease, and a released handle can no longer be extended. */
    @Test
    default void extendingMovesTheLeaseAndNeverTouchesOthers() {
        Lock lock = connectedClient();
        String key = key("k");
        LockHandle held =
                lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(2))).orElseThrow();

        held.extend(Duration.ofSeconds(20));

        assertThat(held.remainingLease()).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(20));
        held.release();
        assertThat(held.remainingLease()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> held.extend(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class);
    }

    /** Stale handles of a thread never keep that thread's later, independent acquisitions from getting the key. */
    @Test
    default void expiredOrAbandonedHoldsNeverBlockTheirThreadsLaterAcquisitions() throws Exception {
        Lock lock = connectedClient();
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
                                () -> lock.tryAcquire(key, LONG_LEASE).orElseThrow())
                        .get(10, TimeUnit.SECONDS);
                assertThat(fresh.fencingToken()).isGreaterThan(expired.fencingToken());
                assertThat(fresh.isLost()).isFalse();
                pool.submit(fresh::release).get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Re-entering a hold that was lost throws {@link LockLostException}. */
    @Test
    default void nestedAcquisitionOfALostHoldThrows() throws Exception {
        Lock lock = connectedClient();
        String key = key("k");
        LockHandle outer =
                lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(100))).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(outer::isLost);

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG_LEASE))
                    .isInstanceOf(LockLostException.class)
                    .hasMessageContaining(key);
        }
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
        assertThat(lock.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    /**
     * Work that outlasts its fixed lease ends with {@link LockLostException}, reason {@code LEASE_EXPIRED}, or {@code
     * GRANTED_TOO_LATE} when the lease was over before the work could start.
     */
    @Test
    default void callbackReportsALockLostDuringTheWork() {
        Lock lock = connectedClient();
        String key = key("k");

        assertThatThrownBy(() -> lock.callWithLock(key, Lease.fixed(Duration.ofMillis(100)), Duration.ZERO, () -> {
                    Thread.sleep(250);
                    return "late";
                }))
                .isInstanceOf(LockLostException.class)
                // On a loaded machine the grant itself can outlast a 100 ms lease: then the work never starts, and
                // the reason says so.
                .satisfies(e -> assertThat(((LockLostException) e).reason())
                        .isIn(LockLostException.Reason.LEASE_EXPIRED, LockLostException.Reason.GRANTED_TOO_LATE));
    }

    /** A fixed lease that runs out is reported to the lost callback once. */
    @Test
    default void lostCallbackFiresOnceWhenAFixedLeaseRunsOut() throws Exception {
        Lock lock = connectedClient();
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
    default void lostCallbackRunsOnAThreadOfTheLocksOwnNeverTheCallers() throws Exception {
        Lock lock = connectedClient();
        LockHandle held =
                lock.tryAcquire(key("k"), Lease.fixed(Duration.ofMillis(100))).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(held::isLost);
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();

        held.onLost(lost -> ranOn.complete(Thread.currentThread()));

        assertThat(ranOn.get(5, TimeUnit.SECONDS)).isNotSameAs(Thread.currentThread());
    }

    /**
     * A hold released in time is never reported lost, not even once its lease would have run out. The lease leaves a
     * busy machine room to release in time.
     */
    @Test
    default void lostCallbackNeverFiresAfterANormalRelease() throws Exception {
        Lock lock = connectedClient();
        LockHandle held =
                lock.tryAcquire(key("k"), Lease.fixed(Duration.ofSeconds(2))).orElseThrow();
        AtomicInteger calls = new AtomicInteger();
        held.onLost(lost -> calls.incrementAndGet());

        held.release();
        Thread.sleep(2400);

        assertThat(calls).hasValue(0);
        assertThat(held.isLost()).isFalse();
    }
}
