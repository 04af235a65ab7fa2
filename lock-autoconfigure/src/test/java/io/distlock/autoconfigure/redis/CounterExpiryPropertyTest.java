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

/**
 * {@code distlock.redis.delete-counters-unused-for} reaches the lock: its fencing tokens come from Redis's clock
 * (microseconds since 1970, past 10^15), where the default counts from 1.
 */
class CounterExpiryPropertyTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis();

    @Test
    void expiringCountersTakeFencingTokensFromRedissClock() {
        runner.withPropertyValues("distlock.redis.delete-counters-unused-for=1h")
                .run(context -> {
                    assertThat(firstToken(context.getBean(Lock.class))).isGreaterThan(1_000_000_000_000_000L);
                });
    }

    @Test
    void countersKeptForEverCountFromOne() {
        runner.run(
                context -> assertThat(firstToken(context.getBean(Lock.class))).isEqualTo(1));
    }

    private static long firstToken(Lock lock) throws InterruptedException {
        try (LockHandle held = lock.acquire("counter:" + UUID.randomUUID(), Lease.fixed(Duration.ofSeconds(10)))) {
            return held.fencingToken();
        }
    }
}
