package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Before Java 21, each asynchronous wait of a lock without a thread-free wait of its own (every lock but Redis's) needs
 * a platform thread. They come from one pool per JVM, so that many waits at once cannot start threads without end:
 * past {@link AsyncAcquisitions#MAX_PLATFORM_WAITS}, a wait fails at once, and its threads serve later waits again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncWaitPoolTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));

    @Test
    void waitsPastThePoolsBoundFailAtOnceAndTheThreadsServeLaterWaits() throws Exception {
        assumeThat(Runtime.version().feature())
                .as("before Java 21; later ones wait on virtual threads")
                .isLessThan(21);
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore())
                .shutdownGracePeriod(Duration.ZERO)
                .build()) {
            String key = "async-pool:" + System.nanoTime();
            LockHandle holder = lock.tryAcquire(key, LEASE).orElseThrow();
            List<CompletableFuture<Optional<LockHandle>>> waits = new ArrayList<>();
            for (int i = 0; i < AsyncAcquisitions.MAX_PLATFORM_WAITS; i++) {
                waits.add(
                        lock.tryAcquireAsync(key, LEASE, Duration.ofSeconds(50)).toCompletableFuture());
            }

            CompletableFuture<Optional<LockHandle>> oneTooMany = lock.tryAcquireAsync(
                            "async-pool:other", LEASE, Duration.ofSeconds(50))
                    .toCompletableFuture();

            assertThat(oneTooMany).isCompletedExceptionally();
            assertThatThrownBy(oneTooMany::get)
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("512 asynchronous waits are under way")
                    .hasMessageContaining("'async-pool:other' was not tried");
            assertThat(waits).noneMatch(CompletableFuture::isDone);

            waits.forEach(wait -> wait.cancel(false));
            holder.release();
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(
                            () -> assertThat(lock.tryAcquireAsync("async-pool:later", LEASE, Duration.ofSeconds(5))
                                            .toCompletableFuture()
                                            .get(10, TimeUnit.SECONDS))
                                    .isPresent());
            assertThat(lock.tryAcquire(key, LEASE))
                    .as("no cancelled wait kept the key")
                    .isPresent();
        }
    }
}
