package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.memory.InMemoryLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * A {@code @Scheduled} job in three application instances at once, each its own context with its own lock over one
 * in-memory store that they share as instances share a server, whose schedules are out of step as those of separately
 * started instances are. The job ends at once.
 *
 * <p>With {@code holdAtLeast}, the store keeps each run's key for the minimum after its grant, so between the first
 * and the last grant of a window of {@code T} fit at most {@code T / minimum + 1} runs, whatever the machine's load; the
 * runs are recorded just after their grants, so the window is widened by {@link #RECORDING_SLACK} for a run whose
 * recording a pause delayed. Without it, the broken control, every instance runs the job in every period.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ScheduledJobAcrossInstancesTest {

    static final long PERIOD_MILLIS = 300;
    static final Duration MINIMUM = Duration.ofMillis(270);
    static final Duration WINDOW = Duration.ofSeconds(3);
    static final Duration RECORDING_SLACK = Duration.ofSeconds(1);

    /** When each run of the job started, by the test JVM's monotonic clock; all instances share this JVM. */
    static final Queue<Long> RUNS = new ConcurrentLinkedQueue<>();

    @Test
    void withAMinimumHoldTheJobRunsOncePerPeriodAcrossThreeInstances() {
        List<Long> runs = runThreeInstances(HeldJob.class);

        long allowed = WINDOW.plus(RECORDING_SLACK).toNanos() / MINIMUM.toNanos() + 1;
        assertThat(runs.size()).as("runs in %s across three instances", WINDOW).isLessThanOrEqualTo((int) allowed);
        assertThat(runs.size())
                .as("runs in %s: the job still runs about once per period", WINDOW)
                .isGreaterThanOrEqualTo((int) (WINDOW.toMillis() / PERIOD_MILLIS / 3));
    }

    /** The broken control: the same lock without the minimum, so a job that ends at once lets the next instance in. */
    @Test
    void withoutAMinimumHoldEveryInstanceRunsTheJobInEveryPeriod() {
        List<Long> runs = runThreeInstances(ReleasedJob.class);

        long allowedWithMinimum = WINDOW.plus(RECORDING_SLACK).toNanos() / MINIMUM.toNanos() + 1;
        assertThat(runs.size()).isGreaterThan((int) allowedWithMinimum);
    }

    /** Starts three instances, counts the runs that start within {@link #WINDOW} once all run, and stops them. */
    private static List<Long> runThreeInstances(Class<?> job) {
        RUNS.clear();
        String key = "scheduled:" + UUID.randomUUID();
        List<ConfigurableApplicationContext> instances = new ArrayList<>();
        try {
            InMemoryLeaseStore store = new InMemoryLeaseStore();
            for (int i = 0; i < 3; i++) {
                instances.add(new SpringApplicationBuilder(Instance.class, job)
                        .web(WebApplicationType.NONE)
                        .properties("spring.main.banner-mode=off")
                        .initializers(context -> context.getBeanFactory().registerSingleton("sharedStore", store))
                        .run(
                                "--distlock.backend=in-memory",
                                "--jobs.key=" + key,
                                "--jobs.hold=" + MINIMUM.toMillis() + "ms"));
            }
            long start = System.nanoTime();
            long end = start + WINDOW.toNanos();
            await().atMost(WINDOW.multipliedBy(3)).until(() -> System.nanoTime() - end > 0);
            return RUNS.stream()
                    .filter(run -> run - start >= 0 && end - run >= 0)
                    .toList();
        } finally {
            instances.forEach(ConfigurableApplicationContext::close);
        }
    }

    /** One instance of the application: the starter's auto-configuration and Spring's scheduling. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ImportAutoConfiguration({
        PropertyPlaceholderAutoConfiguration.class,
        AopAutoConfiguration.class,
        DistributedLockAutoConfiguration.class,
        DistributedLockAnnotationAutoConfiguration.class
    })
    static class Instance {}

    /** The job, registered as a bean of its own in each instance. */
    static class HeldJob {

        @Scheduled(fixedRate = PERIOD_MILLIS)
        @DistributedLock(
                key = "@environment.getProperty('jobs.key')",
                lease = "10s",
                holdAtLeast = "${jobs.hold}",
                waitTime = "0s",
                skipWhenBusy = true)
        public void send() {
            RUNS.add(System.nanoTime());
        }
    }

    /** The same job without the minimum. */
    static class ReleasedJob {

        @Scheduled(fixedRate = PERIOD_MILLIS)
        @DistributedLock(
                key = "@environment.getProperty('jobs.key')",
                lease = "10s",
                waitTime = "0s",
                skipWhenBusy = true)
        public void send() {
            RUNS.add(System.nanoTime());
        }
    }
}
