package io.distlock.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.autoconfigure.DistlockContexts;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Scheduled jobs keyed {@code jobs:<name>} get meters of their own through a property, without a {@link LockKeyGroups}
 * bean; every other key keeps the default group.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyGroupPrefixesTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis()
            .withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class))
            .withUserConfiguration(TestRegistries.class)
            .withBean(Jobs.class);

    @Test
    void keysUnderAConfiguredPrefixAreEachAGroupOfTheirOwn() {
        runner.withPropertyValues("distlock.metrics.key-group-prefixes=jobs:").run(context -> {
            runEveryJob(context);

            assertThat(groupTags(context)).containsExactlyInAnyOrder("jobs:report", "jobs:cleanup", "stock");
        });
    }

    @Test
    void withoutThePropertyEveryJobCountsUnderOneGroup() {
        runner.run(context -> {
            runEveryJob(context);

            assertThat(groupTags(context)).containsExactlyInAnyOrder("jobs", "stock");
        });
    }

    @Test
    void aBlankPrefixFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("distlock.metrics.key-group-prefixes=jobs:, ")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("distlock.metrics.key-group-prefixes")
                        .hasMessageContaining("non-blank"));
    }

    private static void runEveryJob(AssertableApplicationContext context) {
        Jobs jobs = context.getBean(Jobs.class);
        jobs.report();
        jobs.cleanup();
        jobs.deduct("42");
    }

    private static Set<String> groupTags(AssertableApplicationContext context) {
        return context.getBean(MeterRegistry.class).getMeters().stream()
                .map(meter -> meter.getId().getTag("group"))
                .filter(group -> group != null)
                .collect(Collectors.toSet());
    }

    static class Jobs {

        @DistributedLock(key = "'jobs:report'", leaseSeconds = 10)
        public void report() {}

        @DistributedLock(key = "'jobs:cleanup'", leaseSeconds = 10)
        public void cleanup() {}

        @DistributedLock(key = "'stock:' + #sku", leaseSeconds = 10)
        public void deduct(String sku) {}
    }
}
