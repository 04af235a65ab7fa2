package io.distlock.boot35;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.HeldLockDescriptor;
import io.distlock.test.redis.TestRedis;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.HealthContributorRegistry;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * An application on Spring Boot 3.5 with Actuator: distlock's endpoint works, and its health contributor, which
 * lock-autoconfigure-boot3 builds on Spring Boot 3.5's health types, reports the lock as on Spring Boot 4.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Boot35ActuatorTest {

    private final String key = "boot35-actuator:" + UUID.randomUUID();

    private final ApplicationContextRunner application = new ApplicationContextRunner()
            .withUserConfiguration(Application.class)
            .withPropertyValues(
                    "spring.data.redis.port=" + TestRedis.shared().port(),
                    "spring.data.redis.timeout=2s",
                    "management.endpoints.web.exposure.include=health,distlock",
                    "management.endpoint.distlock.show-values=always");

    @Test
    void endpointShowsAHeldLockAndReadsItsKey() {
        application.run(context -> {
            assertThat(context).hasNotFailed();
            Lock lock = context.getBean(Lock.class);
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            try (LockHandle held = lock.tryAcquire(key).orElseThrow()) {
                assertThat(endpoint.locks(SecurityContext.NONE).held())
                        .extracting(HeldLockDescriptor::key, HeldLockDescriptor::fencingToken)
                        .containsExactly(Tuple.tuple(key, held.fencingToken()));
                assertThat(endpoint.key(SecurityContext.NONE, key).heldByThisInstance())
                        .isTrue();
            }
            assertThat(endpoint.key(SecurityContext.NONE, key).held()).isFalse();
        });
    }

    @Test
    void theDistlockHealthContributorIsUpWithItsDetailsWhileRedisAnswers() {
        application.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasBean("distlockHealthIndicator");
            Health health = distlockHealth(context);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails())
                    .containsEntry("reachable", true)
                    .containsEntry("renewer", "running")
                    .containsKeys("roundTrip", "subscription", "held", "waiting");
            assertThat(context.getBean(HealthEndpoint.class).health().getStatus())
                    .isEqualTo(Status.UP);
        });
    }

    @Test
    void theDistlockHealthContributorIsDownWhenRedisDoesNotAnswer() throws IOException {
        int nobody;
        try (ServerSocket socket = new ServerSocket(0)) {
            nobody = socket.getLocalPort();
        }
        application.withPropertyValues("spring.data.redis.port=" + nobody).run(context -> {
            assertThat(context).hasNotFailed();
            Health health = distlockHealth(context);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("reachable", false).containsKey("error");
        });
    }

    @Test
    void theDistlockHealthContributorCanBeSwitchedOff() {
        application
                .withPropertyValues("management.health.distlock.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean("distlockHealthIndicator");
                    assertThat(context.getBean(HealthContributorRegistry.class).getContributor("distlock"))
                            .isNull();
                });
    }

    private static Health distlockHealth(ApplicationContext context) {
        HealthContributor contributor =
                context.getBean(HealthContributorRegistry.class).getContributor("distlock");
        assertThat(contributor).as("the distlock health contributor").isInstanceOf(HealthIndicator.class);
        return ((HealthIndicator) contributor).health();
    }

    /** Like a user's {@code @SpringBootApplication}, without scanning this test's other configurations. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {}
}
