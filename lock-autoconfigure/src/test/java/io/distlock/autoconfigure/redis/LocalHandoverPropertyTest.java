package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code distlock.redis.local-handover-window} reaches the lock: with local handover, every grant in Redis reserves a
 * block of 64 fencing tokens for the run it may start, so the key's counter stands 63 above the token granted.
 */
class LocalHandoverPropertyTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis();

    @Test
    void withLocalHandoverAGrantReservesTheRunsFencingTokens() {
        runner.withPropertyValues("distlock.redis.local-handover-window=50ms")
                .run(context -> assertThat(counterAboveTheGrantedToken(context)).isEqualTo(63));
    }

    @Test
    void withoutItAGrantTakesOneToken() {
        runner.run(context -> assertThat(counterAboveTheGrantedToken(context)).isZero());
    }

    private static long counterAboveTheGrantedToken(ApplicationContext context) throws InterruptedException {
        String key = "local-handover:" + UUID.randomUUID();
        long granted;
        try (LockHandle held = context.getBean(Lock.class).acquire(key, Lease.fixed(Duration.ofSeconds(10)))) {
            granted = held.fencingToken();
        }
        String counter =
                context.getBean(StringRedisTemplate.class).opsForValue().get("{distlock:" + key + "}:fence");
        return Long.parseLong(counter) - granted;
    }
}
