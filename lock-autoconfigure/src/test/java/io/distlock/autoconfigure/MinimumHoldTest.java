package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;

/**
 * {@code @DistributedLock(holdAtLeast = ...)}: a method that ends at once leaves its key held in Redis for the rest of
 * the minimum, and misuses fail start-up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MinimumHoldTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis()
            .withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class));

    private final String job = "job-" + UUID.randomUUID();

    @Test
    void aJobThatEndsAtOnceKeepsItsKeyUntilTheMinimumHasPassed() {
        runner.withPropertyValues("jobs.hold=2s").withBean(Jobs.class).run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            Lock lock = context.getBean(Lock.class);
            long before = System.nanoTime();

            jobs.holding(job);
            jobs.holding(job);
            assertThat(jobs.runs()).as("runs within the minimum").isOne();
            assertThat(otherInstanceTakes(lock, "job:" + job, Duration.ZERO)).isFalse();

            assertThat(otherInstanceTakes(lock, "job:" + job, Duration.ofSeconds(10)))
                    .isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        });
    }

    /** The broken control: without the minimum, the same job runs again at once. */
    @Test
    void withoutAMinimumTheSameJobRunsAgainAtOnce() {
        runner.withPropertyValues("jobs.hold=2s").withBean(Jobs.class).run(context -> {
            Jobs jobs = context.getBean(Jobs.class);

            jobs.releasing(job);
            jobs.releasing(job);

            assertThat(jobs.runs()).isEqualTo(2);
            assertThat(otherInstanceTakes(context.getBean(Lock.class), "job:" + job, Duration.ZERO))
                    .isTrue();
        });
    }

    @Test
    void aJobThatThrowsKeepsItsKeyToo() {
        runner.withPropertyValues("jobs.hold=2s").withBean(Jobs.class).run(context -> {
            Jobs jobs = context.getBean(Jobs.class);

            assertThatThrownBy(() -> jobs.failing(job)).hasMessage("job failed");

            assertThat(otherInstanceTakes(context.getBean(Lock.class), "job:" + job, Duration.ZERO))
                    .isFalse();
        });
    }

    @Test
    void aMinimumLongerThanTheFixedLeaseFailsStartup() {
        assertStartupFails(
                LongerThanLease.class,
                "LongerThanLease.run(String)",
                "holdAtLeast \"2m\" is PT2M, longer than the fixed lease of PT1M",
                "shorten holdAtLeast or lengthen the lease");
    }

    @Test
    void aMinimumOnAnAsynchronousMethodOrSeveralKeysOrAReadLockFailsStartup() {
        assertStartupFails(
                OnMono.class,
                "OnMono.run(String)",
                "holdAtLeast is not supported on an asynchronous method",
                "locked by key or path");
        assertStartupFails(OnKeys.class, "OnKeys.run(String)", "holdAtLeast is not supported on keys");
        assertStartupFails(OnRead.class, "OnRead.run(String)", "holdAtLeast is not supported on a read lock");
    }

    @Test
    void aMinimumThatIsNoDurationOrOutOfRangeFailsStartup() {
        assertStartupFails(Unreadable.class, "Unreadable.run(String)", "holdAtLeast \"soon\" is not a duration");
        assertStartupFails(Zero.class, "Zero.run(String)", "holdAtLeast \"0s\" is PT0S, but must be from 1 ms");
    }

    private void assertStartupFails(Class<?> bean, String... fragments) {
        runner.withBean(bean).run(context -> {
            assertThat(context).hasFailed();
            for (String fragment : fragments) {
                assertThat(context).getFailure().rootCause().hasMessageContaining(fragment);
            }
        });
    }

    /** Another instance's attempt, from another thread: this thread would re-enter a lock its scope holds. */
    private static boolean otherInstanceTakes(Lock lock, String key, Duration wait) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
                    try {
                        return lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)), wait)
                                .map(held -> {
                                    held.release();
                                    return true;
                                })
                                .orElse(false);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                })
                .get(30, TimeUnit.SECONDS);
    }

    /** Read through its methods: the bean is a class proxy, whose own fields are empty. */
    static class Jobs {

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return runs.get();
        }

        @DistributedLock(
                key = "'job:' + #job",
                lease = "30s",
                holdAtLeast = "${jobs.hold}",
                waitTime = "0s",
                skipWhenBusy = true)
        void holding(String job) {
            runs.incrementAndGet();
        }

        @DistributedLock(key = "'job:' + #job", lease = "30s", waitTime = "0s", skipWhenBusy = true)
        void releasing(String job) {
            runs.incrementAndGet();
        }

        @DistributedLock(key = "'job:' + #job", holdAtLeast = "${jobs.hold}", waitTime = "0s")
        void failing(String job) {
            throw new IllegalStateException("job failed");
        }
    }

    static class LongerThanLease {
        @DistributedLock(key = "#job", lease = "1m", holdAtLeast = "2m")
        void run(String job) {}
    }

    static class OnMono {
        @DistributedLock(key = "#job", holdAtLeast = "1s")
        Mono<Void> run(String job) {
            return Mono.empty();
        }
    }

    static class OnKeys {
        @DistributedLock(
                keys = {"#job", "#job + ':2'"},
                holdAtLeast = "1s")
        void run(String job) {}
    }

    static class OnRead {
        @DistributedLock(key = "#job", read = true, holdAtLeast = "1s")
        void run(String job) {}
    }

    static class Unreadable {
        @DistributedLock(key = "#job", holdAtLeast = "soon")
        void run(String job) {}
    }

    static class Zero {
        @DistributedLock(key = "#job", holdAtLeast = "0s")
        void run(String job) {}
    }
}
