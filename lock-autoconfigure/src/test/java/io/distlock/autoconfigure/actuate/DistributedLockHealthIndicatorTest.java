package io.distlock.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The health contributor against a live Redis, and one that stops answering. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedLockHealthIndicatorTest {

    private final String key = "actuator:" + UUID.randomUUID();

    @Test
    void upWithDetailsWhileRedisAnswers() {
        ActuatorContexts.onSharedRedis().run(context -> {
            DistributedLockHealthIndicator indicator = context.getBean(DistributedLockHealthIndicator.class);
            try (LockHandle held = context.getBean(Lock.class).tryAcquire(key).orElseThrow()) {
                Health health = indicator.health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                Map<String, Object> details = health.getDetails();
                assertThat(details)
                        .containsEntry("reachable", true)
                        .containsEntry("renewer", "running")
                        .containsEntry("held", 1)
                        .containsEntry("waiting", 0)
                        .containsKey("subscription")
                        .doesNotContainKey("error");
                assertThat(Duration.parse((String) details.get("roundTrip"))).isPositive();
            }
            assertThat(indicator.health().getDetails()).containsEntry("held", 0);
        });
    }

    @Test
    void downWhileRedisIsPausedAndUpAgainAfter() {
        try (TestRedis redis = TestRedis.start()) {
            ActuatorContexts.runner()
                    .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.timeout=1s")
                    .run(context -> {
                        DistributedLockHealthIndicator indicator =
                                context.getBean(DistributedLockHealthIndicator.class);
                        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
                        redis.pause();
                        try {
                            Health health = indicator.health();
                            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                            assertThat(health.getDetails())
                                    .containsEntry("reachable", false)
                                    .containsEntry("renewer", "running")
                                    .containsKey("error")
                                    .doesNotContainKey("roundTrip");
                        } finally {
                            redis.resume();
                        }
                        await().atMost(Duration.ofSeconds(15))
                                .until(() -> indicator.health().getStatus().equals(Status.UP));
                    });
        }
    }
}
