package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code skipWhenBusy} returns from a busy call without running it, and only from a busy one; {@code lease} and {@code
 * waitTime} are read from text with placeholders at start-up, and every mistake in them fails start-up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BusySkipAndDurationTextTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis()
            .withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class));

    private final String job = "job-" + UUID.randomUUID();

    @Test
    void busyLockSkipsTheCallWhileTheSameMethodWithoutSkipThrows() {
        runner.withBean(Jobs.class).run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            try (LockHandle held = holdElsewhere(context.getBean(Lock.class), "job:" + job)) {
                jobs.skipping(job);
                assertThat(jobs.runs())
                        .as("runs of the skipping job while busy")
                        .isZero();

                // The broken control: the same key and wait without skipWhenBusy, refused loudly.
                assertThatThrownBy(() -> jobs.throwing(job)).isInstanceOf(LockNotAcquiredException.class);
                assertThat(jobs.runs()).isZero();
            }
            jobs.skipping(job);
            assertThat(jobs.runs()).as("runs once the lock is free").isOne();
        });
    }

    @Test
    void leaseAndWaitTextComeFromPlaceholdersAndTheirDefaults() {
        runner.withPropertyValues("jobs.report.lease=3s").withBean(Jobs.class).run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            jobs.fromProperty(job);
            assertThat(jobs.lease()).isEqualTo(Lease.fixed(Duration.ofSeconds(3)));
            jobs.fromDefault(job);
            assertThat(jobs.lease()).isEqualTo(Lease.fixed(Duration.ofMinutes(5)));
            jobs.iso(job);
            assertThat(jobs.lease()).isEqualTo(Lease.fixed(Duration.ofMillis(1500)));
        });
    }

    @Test
    void waitTextBoundsTheWaitAndTheRefusalNamesTheHolder() {
        runner.withPropertyValues("distlock.instance-name=jobs@host-1")
                .withBean(Jobs.class)
                .run(context -> {
                    Jobs jobs = context.getBean(Jobs.class);
                    try (LockHandle held = holdElsewhere(context.getBean(Lock.class), "job:" + job)) {
                        assertThatThrownBy(() -> jobs.waitingBriefly(job))
                                .isInstanceOfSatisfying(LockNotAcquiredException.class, e -> {
                                    assertThat(e.waited()).isEqualTo(Duration.ofMillis(200));
                                    assertThat(e.holder()).contains("jobs@host-1");
                                    assertThat(e.getMessage())
                                            .contains("it was held by 'jobs@host-1' when the wait ended");
                                });
                    }
                });
    }

    @Test
    void skipOnAMethodThatReturnsAValueFailsStartupSayingToNameAFallback() {
        assertStartupFails(
                SkipWithValue.class,
                "SkipWithValue.count(String)",
                "skipWhenBusy needs a method returning void, but it returns int",
                "name a fallback");
    }

    @Test
    void skipBesideAFallbackFailsStartup() {
        assertStartupFails(SkipWithFallback.class, "SkipWithFallback.run(String)", "set skipWhenBusy or fallback");
    }

    @Test
    void placeholderWithoutValueFailsStartupNamingTheAttribute() {
        assertStartupFails(
                MissingProperty.class,
                "MissingProperty.run(String)",
                "lease \"${jobs.absent.lease}\" could not be resolved",
                "${jobs.report.lease:5m}");
    }

    @Test
    void textThatIsNoDurationFailsStartupListingTheFormats() {
        runner.withPropertyValues("jobs.report.lease=five minutes")
                .withBean(PropertyLease.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("PropertyLease.run(String)")
                        .hasMessageContaining("lease \"${jobs.report.lease}\" (\"five minutes\") is not a duration")
                        .hasMessageContaining("\"30s\", \"5m\""));
    }

    @Test
    void textBesideTheNumericAttributeOrOutOfRangeFailsStartup() {
        assertStartupFails(LeaseTwice.class, "LeaseTwice.run(String)", "set lease or leaseSeconds, not both");
        assertStartupFails(WaitTwice.class, "WaitTwice.run(String)", "set waitTime or waitSeconds, not both");
        assertStartupFails(ZeroLease.class, "ZeroLease.run(String)", "lease \"0s\" is PT0S, but must be from 1 ms");
        assertStartupFails(NegativeWait.class, "NegativeWait.run(String)", "waitTime \"-1s\"", "0 (try once) or more");
    }

    private void assertStartupFails(Class<?> bean, String... fragments) {
        runner.withBean(bean).run(context -> {
            assertThat(context).hasFailed();
            for (String fragment : fragments) {
                assertThat(context).getFailure().rootCause().hasMessageContaining(fragment);
            }
        });
    }

    /** Takes the lock on another thread: this thread would re-enter it. */
    private static LockHandle holdElsewhere(Lock lock, String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                        .orElseThrow())
                .get(5, TimeUnit.SECONDS);
    }

    /** Read through its methods: the bean is a class proxy, whose own fields are empty. */
    static class Jobs {

        private final AtomicInteger runs = new AtomicInteger();
        private final AtomicReference<Lease> lease = new AtomicReference<>();

        public int runs() {
            return runs.get();
        }

        public Lease lease() {
            return lease.get();
        }

        @DistributedLock(key = "'job:' + #job", waitTime = "0s", skipWhenBusy = true)
        public void skipping(String job) {
            runs.incrementAndGet();
        }

        @DistributedLock(key = "'job:' + #job", waitTime = "0s")
        public void throwing(String job) {
            runs.incrementAndGet();
        }

        @DistributedLock(key = "'job:' + #job", waitTime = "200ms")
        public void waitingBriefly(String job) {
            runs.incrementAndGet();
        }

        @DistributedLock(key = "'job:' + #job", lease = "${jobs.report.lease:5m}")
        public void fromProperty(String job) {
            lease.set(LockContext.current().orElseThrow().lease());
        }

        @DistributedLock(key = "'job:' + #job", lease = "${jobs.unset.lease:5m}")
        public void fromDefault(String job) {
            lease.set(LockContext.current().orElseThrow().lease());
        }

        @DistributedLock(key = "'job:' + #job", lease = "PT1.5S")
        public void iso(String job) {
            lease.set(LockContext.current().orElseThrow().lease());
        }
    }

    static class SkipWithValue {
        @DistributedLock(key = "#job", skipWhenBusy = true)
        public int count(String job) {
            return 1;
        }
    }

    static class SkipWithFallback {
        @DistributedLock(key = "#job", skipWhenBusy = true, fallback = "busy")
        public void run(String job) {}

        public void busy(String job) {}
    }

    static class MissingProperty {
        @DistributedLock(key = "#job", lease = "${jobs.absent.lease}")
        public void run(String job) {}
    }

    static class PropertyLease {
        @DistributedLock(key = "#job", lease = "${jobs.report.lease}")
        public void run(String job) {}
    }

    static class LeaseTwice {
        @DistributedLock(key = "#job", lease = "5s", leaseSeconds = 5)
        public void run(String job) {}
    }

    static class WaitTwice {
        @DistributedLock(key = "#job", waitTime = "5s", waitSeconds = 5)
        public void run(String job) {}
    }

    static class ZeroLease {
        @DistributedLock(key = "#job", lease = "0s")
        public void run(String job) {}
    }

    static class NegativeWait {
        @DistributedLock(key = "#job", waitTime = "-1s")
        public void run(String job) {}
    }
}
