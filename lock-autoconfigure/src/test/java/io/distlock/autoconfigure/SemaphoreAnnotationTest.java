package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

/**
 * {@code @DistributedLock(permits = 2)} runs a method at most twice at once and lets a third call wait for a permit,
 * or skip with {@code skipWhenBusy}; a method without permits on the same key is another lock.
 */
@SpringBootTest(properties = "distlock.backend=in-memory")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SemaphoreAnnotationTest {

    @Autowired
    private Exports exports;

    @Autowired
    private Lock lock;

    private final String name = "export-" + UUID.randomUUID();

    @BeforeEach
    void closeTheGate() {
        exports.reset();
    }

    @AfterEach
    void letCallsOut() {
        exports.letOut();
    }

    @Test
    void twoCallsRunAtOnceAndTheThirdWaitsForAPermit() throws Exception {
        List<CompletableFuture<String>> first = List.of(
                CompletableFuture.supplyAsync(() -> exports.export(name)),
                CompletableFuture.supplyAsync(() -> exports.export(name)));
        await().atMost(Duration.ofSeconds(10)).until(() -> exports.inside() == 2);

        CompletableFuture<String> third = CompletableFuture.supplyAsync(() -> exports.export(name));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !third.isDone());
        assertThat(exports.inside()).isEqualTo(2);

        exports.letOut();

        assertThat(third.get(10, TimeUnit.SECONDS)).isEqualTo("exported");
        assertThat(CompletableFuture.allOf(first.toArray(CompletableFuture[]::new)))
                .succeedsWithin(Duration.ofSeconds(10));
        assertThat(exports.peak()).isEqualTo(2);
    }

    @Test
    void aCallThatFindsEveryPermitTakenSkipsWhenAskedTo() throws Exception {
        Lock semaphore = Kind.SEMAPHORE.of(lock).permits(2);
        Lease lease = Lease.fixed(Duration.ofSeconds(30));
        try (LockHandle one = semaphore.tryAcquire("nightly:" + name, lease).orElseThrow();
                LockHandle two = semaphore.tryAcquire("nightly:" + name, lease).orElseThrow()) {
            exports.nightly(name);
            assertThat(exports.nightlyRuns()).isZero();
        }

        exports.nightly(name);
        assertThat(exports.nightlyRuns()).isOne();
    }

    @Test
    void theKeysLockIsApartFromItsPermits() throws Exception {
        try (LockHandle locked = lock.tryAcquire("nightly:" + name, Lease.fixed(Duration.ofSeconds(30)))
                .orElseThrow()) {
            exports.nightly(name);
        }
        assertThat(exports.nightlyRuns()).isOne();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Exports exports() {
            return new Exports();
        }
    }

    /** Read through its methods: the test holds the proxy, whose own fields are not the bean's. */
    static class Exports {

        private volatile CountDownLatch open = new CountDownLatch(1);
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger peak = new AtomicInteger();
        private final AtomicInteger nightlyRuns = new AtomicInteger();

        public void reset() {
            open = new CountDownLatch(1);
            peak.set(0);
            nightlyRuns.set(0);
        }

        public void letOut() {
            open.countDown();
        }

        public int inside() {
            return inside.get();
        }

        public int peak() {
            return peak.get();
        }

        public int nightlyRuns() {
            return nightlyRuns.get();
        }

        @DistributedLock(key = "'export:' + #name", permits = 2, leaseSeconds = 30, waitSeconds = 20)
        public String export(String name) {
            peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try {
                if (!open.await(20, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let the call out");
                }
                return "exported";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                inside.decrementAndGet();
            }
        }

        @DistributedLock(key = "'nightly:' + #name", permits = 2, leaseSeconds = 30, skipWhenBusy = true)
        public void nightly(String name) {
            nightlyRuns.incrementAndGet();
        }
    }
}
