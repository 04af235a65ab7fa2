package io.distlock.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.autoconfigure.DistlockContexts;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keys and tree names built from request data, as applications build them, through annotated methods on a real
 * Redis: however many distinct values the requests bring, distlock's meters and span names stay few.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KeyGroupCardinalityTest {

    private static final int REQUESTS = 10_000;

    /** The documented default of {@code distlock.metrics.max-groups}. */
    private static final int DEFAULT_MAX_GROUPS = 100;

    /**
     * Per group: the acquisition and the hold timer of each of the two kinds the requests take, and the long-task timer
     * of what runs now that Spring Boot's meter handler adds to each.
     */
    private static final int METERS_PER_GROUP = 8;

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis()
            .withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class))
            .withUserConfiguration(RecordingRegistries.class)
            .withBean(Requests.class);

    @Test
    void tenThousandRequestDerivedKeysAndTreeNamesMakeAtMostTheDefaultNumberOfGroupsAndTwoSpanNames() {
        runner.run(context -> {
            sendRequests(context.getBean(Requests.class));

            assertThat(groupTags(context)).hasSizeLessThanOrEqualTo(DEFAULT_MAX_GROUPS + 1);
            assertThat(distlockMeters(context)).hasSizeLessThanOrEqualTo((DEFAULT_MAX_GROUPS + 1) * METERS_PER_GROUP);
            Seen seen = context.getBean(Seen.class);
            assertThat(seen.groups).hasSizeLessThanOrEqualTo(DEFAULT_MAX_GROUPS + 1);
            assertThat(seen.spanNames).containsExactlyInAnyOrder("distlock acquire", "distlock hold");
        });
    }

    @Test
    void treesAreGroupedByTheirPrefixAndGroupsBeyondTheConfiguredMaximumAreCountedAsOther() {
        runner.withPropertyValues("distlock.metrics.max-groups=3").run(context -> {
            Requests requests = context.getBean(Requests.class);
            // Groups keep their names in the order they first come: this one among the first three.
            requests.editProject(UUID.randomUUID().toString(), "docs");
            sendRequests(requests);

            Set<String> groups = groupTags(context);
            assertThat(groups).hasSize(4).contains("project", "other");
            assertThat(context.getBean(Seen.class).groups).isEqualTo(groups);
        });
    }

    private static void sendRequests(Requests requests) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> calls = IntStream.range(0, REQUESTS)
                    .mapToObj(i -> threads.submit(() -> {
                        String customer = "customer-" + i + "@example.com";
                        requests.checkout(customer);
                        if (i % 2 == 0) {
                            requests.editProject(UUID.randomUUID().toString(), "docs/" + i);
                        } else {
                            requests.editDrafts(customer, "draft-" + i);
                        }
                    }))
                    .collect(Collectors.toList());
            for (Future<?> call : calls) {
                call.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static List<Meter> distlockMeters(AssertableApplicationContext context) {
        return context.getBean(MeterRegistry.class).getMeters().stream()
                .filter(meter -> meter.getId().getTag("group") != null)
                .toList();
    }

    private static Set<String> groupTags(AssertableApplicationContext context) {
        return distlockMeters(context).stream()
                .map(meter -> meter.getId().getTag("group"))
                .collect(Collectors.toSet());
    }

    /** A meter registry, and an observation registry that notes the span name and group of every observation. */
    @Configuration(proxyBeanMethods = false)
    static class RecordingRegistries {

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        Seen seen() {
            return new Seen();
        }

        /** With Spring Boot's meter handler too, which makes distlock's timers of the observations. */
        @Bean
        ObservationRegistry observationRegistry(Seen seen, SimpleMeterRegistry meters) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig()
                    .observationHandler(seen)
                    .observationHandler(new DefaultMeterObservationHandler(meters));
            return registry;
        }
    }

    /** The span names and groups of the observations that ended. */
    static class Seen implements ObservationHandler<Observation.Context> {

        final Set<String> spanNames = ConcurrentHashMap.newKeySet();
        final Set<String> groups = ConcurrentHashMap.newKeySet();

        @Override
        public void onStop(Observation.Context context) {
            spanNames.add(String.valueOf(context.getContextualName()));
            KeyValue group = context.getLowCardinalityKeyValue("group");
            if (group != null) {
                groups.add(group.getValue());
            }
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    /** What a web application's request handlers lock: a customer's cart, and folders of a project or a customer. */
    static class Requests {

        @DistributedLock(key = "#customer + ':cart'")
        public void checkout(String customer) {}

        @DistributedLock(tree = "'project:' + #project", path = "#folder")
        public void editProject(String project, String folder) {}

        @DistributedLock(tree = "#customer + ':drafts'", path = "#draft")
        public void editDrafts(String customer, String draft) {}
    }
}
