package io.distlock.bench.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.contender.AsyncContender;
import io.distlock.bench.worker.Workload.Check;
import io.distlock.bench.worker.Workload.KeyMode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The non-blocking driver without Redis: what it counts, and that its critical section catches a broken lock. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AsyncLockLoopTest {

    private static final int CHAINS = 4;

    private final ExecutorService grants = Executors.newFixedThreadPool(CHAINS);

    @AfterEach
    void stopGrants() {
        grants.shutdownNow();
    }

    @Test
    void aLockThatGrantsEveryoneAtOnceIsCaughtWithTwoHoldersInside() throws Exception {
        AsyncContender broken = new FakeContender() {
            @Override
            public CompletionStage<@Nullable AsyncRelease> tryAcquireAsync(String key, Duration lease, Duration wait) {
                return CompletableFuture.supplyAsync(() -> () -> CompletableFuture.completedFuture(null), grants);
            }
        };

        WorkloadResult result = new WorkloadRunner(broken, null).run(contended(Duration.ofMillis(500)));

        assertThat(result.acquisitions()).isPositive();
        assertThat(result.violations())
                .as("violations of a lock that excludes no one")
                .isPositive();
    }

    @Test
    void chainsThatFailOrTimeOutAreCountedAndTheRunStillEnds() throws Exception {
        AsyncContender refusing = new FakeContender() {
            private int calls;

            @Override
            public synchronized CompletionStage<@Nullable AsyncRelease> tryAcquireAsync(
                    String key, Duration lease, Duration wait) {
                return calls++ % 2 == 0
                        ? CompletableFuture.supplyAsync(() -> null, grants)
                        : CompletableFuture.failedFuture(new IllegalStateException("closed"));
            }
        };

        WorkloadResult result = new WorkloadRunner(refusing, null).run(contended(Duration.ofMillis(200)));

        assertThat(result.acquisitions()).isZero();
        assertThat(result.timeouts()).isPositive();
        assertThat(result.failures()).isPositive();
        assertThat(result.firstFailure()).isEqualTo("java.lang.IllegalStateException: closed");
        assertThat(result.perThread()).hasSize(CHAINS);
    }

    private static Workload contended(Duration duration) {
        return new Workload(
                CHAINS,
                KeyMode.SHARED,
                "async-loop-test",
                0,
                Check.IN_PROCESS,
                Duration.ofSeconds(30),
                Duration.ofSeconds(1),
                System.currentTimeMillis(),
                duration);
    }

    private abstract static class FakeContender implements AsyncContender {
        @Override
        public void close() {}
    }
}
