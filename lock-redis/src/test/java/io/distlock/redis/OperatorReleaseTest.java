package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An operator frees a stuck key by naming its hold's fencing token: only that hold is released, its holder hears it
 * lost with its own reason, and waiters take the key at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OperatorReleaseTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(60));

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "stuck:" + UUID.randomUUID();

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void theNamedHoldIsReleasedItsHolderHearsWhyAndAWaiterTakesTheKey() throws Exception {
        RedisLock stuck = clients.lock();
        RedisLock operator = clients.lock();
        RedisLock other = clients.lock();
        LockHandle held = stuck.acquire(key, Lease.renewed());
        Future<Optional<LockHandle>> waiter = threads.submit(() -> other.tryAcquire(key, LONG, Duration.ofSeconds(30)));
        await().atMost(Duration.ofSeconds(20)).until(() -> other.waitingCount() == 1);

        assertThat(operator.releaseForOperator(key, held.fencingToken())).isTrue();

        await().atMost(Duration.ofSeconds(20)).until(held::isLost);
        assertThatThrownBy(held::release)
                .isInstanceOfSatisfying(
                        LockLostException.class,
                        lost -> assertThat(lost.reason()).isEqualTo(LockLostException.Reason.RELEASED_BY_OPERATOR));
        LockHandle next = waiter.get(20, TimeUnit.SECONDS).orElseThrow();
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
        next.release();
    }

    @Test
    void aStaleFencingTokenLeavesTheNewHolderAlone() {
        RedisLock first = clients.lock();
        RedisLock second = clients.lock();
        LockHandle old = first.tryAcquire(key, LONG).orElseThrow();
        long oldToken = old.fencingToken();
        old.release();
        LockHandle current = second.tryAcquire(key, LONG).orElseThrow();

        assertThat(first.releaseForOperator(key, oldToken)).isFalse();

        assertThat(current.isHeld()).isTrue();
        assertThat(first.keyState(key).held()).isTrue();
        current.release();
    }

    @Test
    void aFreeKeyOrReadersAreNotReleased() throws Exception {
        RedisLock lock = clients.lock();
        assertThat(lock.releaseForOperator(key, 1)).isFalse();

        try (LockHandle reader = lock.reading().acquire(key, LONG)) {
            assertThat(lock.releaseForOperator(key, reader.fencingToken())).isFalse();
            assertThat(reader.isHeld()).isTrue();
        }
    }
}
