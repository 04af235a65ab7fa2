package io.distlock.boot35;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.metrics.LockGaugesBinder;
import io.distlock.autoconfigure.metrics.LockObservations;
import io.distlock.autoconfigure.metrics.MicrometerLockObserver;
import io.distlock.autoconfigure.metrics.ObservationLockObserver;
import io.distlock.test.redis.TestRedis;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * An application on Spring Boot 3.5 with Actuator: distlock's meters land in Boot 3.5's registry, and its observations
 * in Boot 3.5's observation registry, whose meter handler times them too.
 */
class Boot35MetricsTest {

    private final ApplicationContextRunner application = new ApplicationContextRunner()
            .withUserConfiguration(Application.class)
            .withPropertyValues("spring.data.redis.port=" + TestRedis.shared().port(), "spring.data.redis.timeout=2s");

    @Test
    void locksAreMeasuredOnSpringBoot35() {
        application.run(context -> {
            assertThat(context).hasSingleBean(MicrometerLockObserver.class);
            assertThat(context).hasSingleBean(ObservationLockObserver.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            try (LockHandle held = context.getBean(Lock.class)
                    .tryAcquire("boot35:" + UUID.randomUUID(), Lease.fixed(Duration.ofSeconds(10)))
                    .orElseThrow()) {
                assertThat(meters.get(LockGaugesBinder.HELD_LOCKS).gauge().value())
                        .isEqualTo(1.0);
            }

            // Spring Boot 3.5's meter handler makes the timers of the observations, under distlock's timer names.
            assertThat(meters.get(MicrometerLockObserver.ACQUIRE)
                            .tags("kind", "exclusive", "group", "boot35", "outcome", "acquired", "error", "none")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(meters.get(MicrometerLockObserver.HELD)
                            .tags("group", "boot35", "outcome", "released")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(LockObservations.ACQUIRE.getName()).isEqualTo(MicrometerLockObserver.ACQUIRE);
            assertThat(meters.getMeters())
                    .extracting(meter -> meter.getId().getName())
                    .noneMatch(name -> name.startsWith("distlock.lock."));
        });
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {}
}
