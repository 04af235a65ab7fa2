package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/**
 * The lock reaches Redis through Spring Boot's {@link DataRedisConnectionDetails} bean alone, with no {@code
 * spring.data.redis.*} property: the bean that Testcontainers' {@code @ServiceConnection} and Docker Compose support
 * define.
 */
class ConnectionDetailsTest {

    @Test
    void lockUsesTheConnectionDetailsBeanWithoutRedisProperties() {
        TestRedis redis = TestRedis.shared();
        String key = "connection-details:" + UUID.randomUUID();
        DistlockContexts.runner()
                .withBean(DataRedisConnectionDetails.class, () -> new DataRedisConnectionDetails() {
                    @Override
                    public Standalone getStandalone() {
                        return Standalone.of(redis.host(), redis.port());
                    }
                })
                .run(context -> {
                    assertThat(context.getEnvironment().containsProperty("spring.data.redis.port"))
                            .isFalse();
                    try (LockHandle held = context.getBean(Lock.class)
                            .tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                            .orElseThrow()) {
                        // On the test's own server, not on a Redis that the default localhost:6379 would reach.
                        assertThat(redis.command("EXISTS", "{distlock:" + key + "}"))
                                .isEqualTo("1");
                    }
                    assertThat(redis.command("EXISTS", "{distlock:" + key + "}"))
                            .isEqualTo("0");
                });
    }
}
