package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static io.distlock.tck.contract.ContractTimes.SHORT_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.abort;

import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises about re-entry ("Reentrancy" in its javadoc): an acquisition re-enters a hold only
 * inside a scope of the current thread that holds the key, and is a new owner's everywhere else; {@link LockContract}
 * runs it for each implementation. Re-entry through the JDK view is {@link JavaLockViewContract}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // cases hold scopes in try-with-resources blocks that never name them
public interface ReentryContract extends ContractSubject {

    /**
     * Removes a held key from the store behind its holder's back, as an operator's delete would, or the store's own
     * expiry before the holder's timer noticed: the client that holds it is not told. The backend's test removes what
     * its lock keeps for the key (Redis: the lock's key; JDBC: the key's row; ZooKeeper: the key's nodes). The default
     * skips the case that needs it, for a backend whose test cannot reach into its store.
     *
     * @param key the key as the contract named it, held by one client
     * @throws Exception if the store could not be changed
     */
    default void removeBehindTheClientsBack(String key) throws Exception {
        abort("this backend's test cannot remove a key from its store behind the client's back");
    }

    /**
     * A nested acquisition succeeds only "after the store confirms the hold still owns the key": once the key was
     * removed behind the holder's back, nested work fails with {@link LockLostException} without running, and the
     * outer hold learns that it is lost, through its handle and its loss callbacks.
     */
    @Test
    default void nestedAcquisitionAfterTheKeyWasRemovedBehindTheClientsBackFailsAndReportsTheLoss() throws Exception {
        Lock lock = connectedClient();
        String key = key("k");
        LockHandle outer = lock.acquire(key, LONG_LEASE);
        CompletableFuture<LockLostException> reported = new CompletableFuture<>();
        outer.onLost(reported::complete);
        AtomicBoolean nestedWorkRan = new AtomicBoolean();

        removeBehindTheClientsBack(key);
        Throwable nested;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            nested = catchThrowable(
                    () -> lock.runWithLock(key, LONG_LEASE, Duration.ZERO, () -> nestedWorkRan.set(true)));
        }

        assertThat(nestedWorkRan)
                .as("whether the nested work ran after the key was removed behind the client's back")
                .isFalse();
        assertThat(nested)
                .as("what the nested acquisition threw after the key was removed behind the client's back")
                .isInstanceOf(LockLostException.class);
        assertThat(outer.isLost())
                .as("whether the outer handle knows its hold is lost")
                .isTrue();
        assertThat(reported)
                .as("the loss reported to the outer handle's callback")
                .succeedsWithin(Duration.ofSeconds(10));
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
    }

    /** An acquisition inside a scope of the holder re-enters, and the key is freed by the last release. */
    @Test
    default void acquisitionInsideAScopeOfTheHolderReentersAndTheLockIsFreedByTheLastRelease() throws Exception {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String key = key("k");

        LockHandle outer = lock.acquire(key, LONG_LEASE);
        LockHandle inner;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            inner = lock.tryAcquire(key, LONG_LEASE).orElseThrow();
        }

        assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
        assertThat(inner.ownerToken()).isEqualTo(outer.ownerToken());
        inner.release();
        assertThat(outer.isHeld()).isTrue();
        assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
        outer.release();
        assertThat(other.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    /** Nested work of {@code callWithLock} on the same key re-enters the hold of the enclosing work. */
    @Test
    default void nestedWorkOfCallWithLockReentersTheHeldKey() throws Exception {
        Lock lock = connectedClient();
        String key = key("k");

        long[] tokens = lock.callWithLock(key, LONG_LEASE, Duration.ZERO, () -> {
            long outer = LockContext.current(key).orElseThrow().fencingToken();
            long nested = lock.callWithLock(
                    key,
                    LONG_LEASE,
                    Duration.ZERO,
                    () -> LockContext.current(key).orElseThrow().fencingToken());
            return new long[] {outer, nested};
        });

        assertThat(tokens[1]).isEqualTo(tokens[0]);
        assertThat(connectedClient().tryAcquire(key, LONG_LEASE)).isPresent();
    }

    /** The handles of one hold may be released in any order; the key stays held until the last one. */
    @Test
    default void nestedReleaseInAnyOrderKeepsTheLockUntilTheLastHandle() {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String key = key("k");
        LockHandle outer = lock.tryAcquire(key, LONG_LEASE).orElseThrow();
        LockHandle inner;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            inner = lock.tryAcquire(key, LONG_LEASE).orElseThrow();
        }

        outer.release();
        assertThat(inner.isHeld()).isTrue();
        assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
        inner.release();
        assertThat(other.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    /** Another thread of the same client is another owner. */
    @Test
    default void anotherThreadOfTheSameClientIsAnotherOwner() {
        Lock lock = connectedClient();
        String key = key("k");
        lock.tryAcquire(key, LONG_LEASE).orElseThrow();

        assertThat(onOtherThread(() -> lock.tryAcquire(key, LONG_LEASE))).isEmpty();
    }

    /**
     * The thread that acquired outside a scope is another owner the next time: it may have handed its handle to a
     * stage that still works under it.
     */
    @Test
    default void sameThreadOutsideAScopeIsAnotherOwnerSoAHandedOffHandleNeverMeetsATwin() throws Exception {
        Lock lock = connectedClient();
        String key = key("k");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // The pool thread acquires, hands the handle to a stage running elsewhere, and goes back to the pool.
            LockHandle handedOff =
                    pool.submit(() -> lock.acquire(key, LONG_LEASE)).get(10, TimeUnit.SECONDS);
            CountDownLatch stageDone = new CountDownLatch(1);
            CompletableFuture<Void> stage = CompletableFuture.runAsync(
                    () -> {
                        try (handedOff) {
                            stageDone.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    contractThreads());

            // The pool thread's next task wants the same key: it must wait like anyone else, not re-enter.
            Optional<LockHandle> nextTask = pool.submit(() -> lock.tryAcquire(key, LONG_LEASE, SHORT_WAIT))
                    .get(10, TimeUnit.SECONDS);
            assertThat(nextTask).as("second holder while the stage still works").isEmpty();

            stageDone.countDown();
            stage.get(10, TimeUnit.SECONDS);
            Optional<LockHandle> afterStage =
                    pool.submit(() -> lock.tryAcquire(key, LONG_LEASE)).get(10, TimeUnit.SECONDS);
            assertThat(afterStage).isPresent();
            assertThat(afterStage.get().fencingToken()).isGreaterThan(handedOff.fencingToken());
            afterStage.get().release();
        } finally {
            pool.shutdownNow();
        }
    }
}
