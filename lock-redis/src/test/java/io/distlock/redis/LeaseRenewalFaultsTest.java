package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.LockHandle;
import io.distlock.LockLostException.Reason;
import io.distlock.tck.net.TcpProxy;
import io.distlock.test.redis.TestRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Renewals when one connection stops answering while the others work. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeaseRenewalFaultsTest {

    private static final Duration WATCHDOG_LEASE = Duration.ofMillis(1500);
    /** Longer than the lease, as Spring Boot's default of 60 s is longer than the default watchdog lease of 30 s. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private static TestRedis redis;

    private final String stuckKey = "renewal-stuck:" + UUID.randomUUID();
    private final String healthyKey = "renewal-healthy:" + UUID.randomUUID();

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @Test
    void renewalStuckOnOneConnectionDoesNotCostTheOtherHoldsTheirLocks() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
                RedisClients viaProxy = new RedisClients("127.0.0.1", proxy.port(), redis.password());
                RedisLock lock = RedisLock.builder(viaProxy.pooledConnectionFactory(16, COMMAND_TIMEOUT))
                        .watchdogLease(WATCHDOG_LEASE)
                        .shutdownGracePeriod(Duration.ZERO)
                        .build()) {
            LockHandle stuck = lock.tryAcquire(stuckKey).orElseThrow();
            AtomicReference<Reason> stuckLost = new AtomicReference<>();
            stuck.onLost(lost -> stuckLost.set(lost.reason()));
            LockHandle healthy = lock.tryAcquire(healthyKey).orElseThrow();
            // Every connection that carries a renewal of the stuck key hangs from then on, as a connection whose reply
            // got lost does; the others keep working.
            proxy.stallConnectionsCarrying(lockKey(stuckKey).getBytes(StandardCharsets.UTF_8));

            await().atMost(Duration.ofSeconds(10)).until(() -> stuckLost.get() != null);
            assertThat(stuckLost.get()).isEqualTo(Reason.RENEWAL_FAILED);
            await().during(WATCHDOG_LEASE.multipliedBy(3))
                    .atMost(WATCHDOG_LEASE.multipliedBy(4))
                    .until(() -> !healthy.isLost());
            assertThat(Long.parseLong(redis.command("PTTL", lockKey(healthyKey))))
                    .isPositive();
            healthy.release();
            proxy.resume();
        }
    }

    private static String lockKey(String name) {
        return "{distlock:" + name + "}";
    }
}
