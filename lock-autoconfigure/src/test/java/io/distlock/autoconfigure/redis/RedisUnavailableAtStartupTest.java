package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The documented behaviour when Redis is down at start-up: the application starts, lock calls fail clearly, and they
 * work once Redis is back, without a restart.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisUnavailableAtStartupTest {

    @Test
    void applicationStartsLockCallsFailClearlyAndRecoverWhenRedisComesUp() {
        try (TestRedis redis = TestRedis.start()) {
            redis.kill();
            DistlockContexts.runner()
                    .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.timeout=1s")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        Lock lock = context.getBean(Lock.class);

                        assertThatThrownBy(() -> lock.tryAcquire("startup:k", Lease.fixed(Duration.ofSeconds(5))))
                                .isInstanceOf(LockBackendException.class)
                                .hasMessageContaining("startup:k")
                                .hasMessageContaining("acquire");

                        redis.startAgain();
                        assertThat(lock.tryAcquire(
                                        "startup:k", Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(5)))
                                .isPresent();
                    });
        }
    }
}
