package io.distlock.tck.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises about acquisitions that no caller's thread waits for ({@link Lock#tryAcquireAsync},
 * {@link Lock#acquireAsync}); {@link LockContract} runs it for each implementation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public interface AsyncContract extends ContractSubject {

    /** A lease that outlasts every test. */
    Lease ASYNC_LEASE = Lease.fixed(Duration.ofSeconds(30));

    /** An asynchronous acquisition of a free key completes with a handle that holds it. */
    @Test
    default void anAsynchronousAcquisitionOfAFreeKeyHoldsIt() {
        Lock lock = connectedClient();
        String key = key("free");

        LockHandle held = lock.acquireAsync(key, ASYNC_LEASE, Duration.ofSeconds(5))
                .toCompletableFuture()
                .join();

        assertThat(held.isHeld()).isTrue();
        assertThat(connectedClient().tryAcquire(key, ASYNC_LEASE)).isEmpty();
        held.release();
        connectedClient().tryAcquire(key, ASYNC_LEASE).orElseThrow().release();
    }

    /** A waiting asynchronous acquisition completes with the key once another client releases it. */
    @Test
    default void anAsynchronousAcquisitionGetsTheKeyWhenAnotherClientReleasesIt() throws Exception {
        Lock holder = connectedClient();
        String key = key("released");
        LockHandle held = holder.tryAcquire(key, ASYNC_LEASE).orElseThrow();

        CompletableFuture<LockHandle> waiting = connectedClient()
                .acquireAsync(key, ASYNC_LEASE, Duration.ofSeconds(20))
                .toCompletableFuture();
        await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(waiting).isNotDone();
        held.release();

        LockHandle next = waiting.get(10, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
        next.release();
    }

    /** An asynchronous acquisition whose wait ends while the key stays held completes without it. */
    @Test
    default void anAsynchronousAcquisitionEndsWithoutTheKeyWhenItStaysHeld() {
        Lock holder = connectedClient();
        String key = key("held");
        LockHandle held = holder.tryAcquire(key, ASYNC_LEASE).orElseThrow();

        Optional<LockHandle> acquired = connectedClient()
                .tryAcquireAsync(key, ASYNC_LEASE, Duration.ofMillis(300))
                .toCompletableFuture()
                .join();

        assertThat(acquired).isEmpty();
        assertThatThrownBy(() -> connectedClient()
                        .acquireAsync(key, ASYNC_LEASE, Duration.ZERO)
                        .toCompletableFuture()
                        .join())
                .hasCauseInstanceOf(LockNotAcquiredException.class);
        held.release();
    }

    /** An asynchronous release frees the key for a waiter of another client. */
    @Test
    default void anAsynchronousReleaseFreesTheKeyForAWaiterOfAnotherClient() throws Exception {
        Lock holder = connectedClient();
        String key = key("released-async");
        LockHandle held = holder.tryAcquire(key, ASYNC_LEASE).orElseThrow();
        CompletableFuture<LockHandle> waiting = connectedClient()
                .acquireAsync(key, ASYNC_LEASE, Duration.ofSeconds(20))
                .toCompletableFuture();

        held.releaseAsync().toCompletableFuture().get(5, TimeUnit.SECONDS);

        LockHandle next = waiting.get(10, TimeUnit.SECONDS);
        assertThat(held.releaseAsync().toCompletableFuture())
                .failsWithin(Duration.ofSeconds(5))
                .withThrowableThat()
                .havingCause()
                .isInstanceOf(IllegalStateException.class);
        next.releaseAsync().toCompletableFuture().get(5, TimeUnit.SECONDS);
        connectedClient().tryAcquire(key, ASYNC_LEASE).orElseThrow().release();
    }

    /** A cancelled asynchronous acquisition leaves nothing held: once the holder releases, another client takes the key. */
    @Test
    default void aCancelledAsynchronousAcquisitionHoldsNothing() {
        Lock holder = connectedClient();
        String key = key("cancelled");
        LockHandle held = holder.tryAcquire(key, ASYNC_LEASE).orElseThrow();
        CompletableFuture<LockHandle> waiting = connectedClient()
                .acquireAsync(key, ASYNC_LEASE, Duration.ofSeconds(20))
                .toCompletableFuture();
        await().pollDelay(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(() -> true);

        assertThat(waiting.cancel(false)).isTrue();
        held.release();

        Lock third = connectedClient();
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> third.tryAcquire(key, ASYNC_LEASE).orElseThrow().release());
    }
}
