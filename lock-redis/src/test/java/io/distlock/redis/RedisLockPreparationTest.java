package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.monitor.BackendState;
import io.distlock.redis.internal.engine.WarmUpKeys;
import io.distlock.redis.internal.scripts.LockScripts;
import io.distlock.tck.net.FreePorts;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RedisLock#prepare}: what a first acquisition would wait for is made before it, on a server of the test's own
 * whose script cache it flushes. The same on every master of a cluster is in {@link RedisLockClusterTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLockPreparationTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void preparingLoadsTheScriptsAndSubscribesWithoutLeavingAKeyHeld() throws Exception {
        redis.command("SCRIPT", "FLUSH");
        RedisLock lock = clients.lock();
        assertThat(knowsAcquisitionScript()).as("script known before preparing").isFalse();
        assertThat(lock.checkBackend().subscription()).isEqualTo(BackendState.Subscription.NOT_STARTED);

        assertThat(lock.prepare(WAIT)).isTrue();

        assertThat(knowsAcquisitionScript()).as("script known once prepared").isTrue();
        assertThat(lock.checkBackend().subscription()).isEqualTo(BackendState.Subscription.SUBSCRIBED);
        assertThat(redis.command("EXISTS", "{distlock:" + WarmUpKeys.BASE + "}"))
                .isEqualTo("0");
        assertThat(lock.heldCount()).isZero();
    }

    @Test
    void preparingWhileAnotherInstanceHoldsTheWarmUpKeyLeavesItsHoldAlone() throws Exception {
        RedisLock lock = clients.lock();
        RedisLock other = clients.lock();
        assertThat(lock.prepare(WAIT)).isTrue();

        try (var held = other.acquire(WarmUpKeys.BASE, Lease.fixed(WAIT))) {
            assertThat(held.isHeld()).isTrue();
            assertThat(lock.prepare(WAIT))
                    .as("preparing while another instance holds the warm-up key")
                    .isTrue();
            assertThat(held.isHeld()).isTrue();
        }
    }

    @Test
    void preparingWithNoServerReportsFalseWithoutThrowing() throws Exception {
        try (RedisClients nowhere = new RedisClients("127.0.0.1", FreePorts.next(), null)) {
            RedisLock lock = nowhere.lock();

            assertThat(lock.prepare(WAIT)).isFalse();
            assertThat(lock.isRunning()).isTrue();
        }
    }

    private static boolean knowsAcquisitionScript() {
        return redis.command("SCRIPT", "EXISTS", LockScripts.ACQUIRE.getSha1()).contains("1");
    }
}
