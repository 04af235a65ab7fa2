package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.monitor.BackendState;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.KeyState;
import io.distlock.monitor.LockKind;
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

/** What a {@link RedisLock} tells operators about its holds, its waiters, a key and its server. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockInspectionTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "inspected:" + UUID.randomUUID();

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
    void aHeldLockIsListedWithItsTokenKindLeaseAndNestingButNeverItsOwnerToken() throws Exception {
        RedisLock lock = clients.lock();
        try (LockHandle outer = lock.acquire(key, Lease.fixed(LONG));
                LockContext.Scope scope = LockContext.enter(outer);
                LockHandle nested = lock.acquire(key, Lease.fixed(LONG))) {
            assertThat(lock.heldLocks()).singleElement().satisfies(held -> {
                assertThat(held.key()).isEqualTo(key);
                assertThat(held.tree()).isNull();
                assertThat(held.kind()).isEqualTo(LockKind.EXCLUSIVE);
                assertThat(held.fencingToken()).isEqualTo(outer.fencingToken());
                assertThat(held.renewed()).isFalse();
                assertThat(held.remainingLease()).isPositive().isLessThanOrEqualTo(LONG);
                assertThat(held.handles()).isEqualTo(2);
                assertThat(held.acquiredBy()).isEqualTo(Thread.currentThread().getName());
                assertThat(held.boundThread()).isNull();
                assertThat(held.toString()).doesNotContain(outer.ownerToken());
            });
            assertThat(lock.heldCount()).isEqualTo(1);
        }
        assertThat(lock.heldLocks()).isEmpty();
        assertThat(lock.heldCount()).isZero();
    }

    @Test
    void aPathIsListedUnderItsTreeAndAJavaLockUnderItsThread() throws Exception {
        RedisLock lock = clients.lock();
        String tree = key + ":tree";
        java.util.concurrent.locks.Lock javaLock = lock.asJavaLock(key, Lease.renewed());
        try (LockHandle path = lock.tree(tree).acquire("/a/b/", Lease.renewed())) {
            javaLock.lock();
            try {
                assertThat(lock.heldLocks())
                        .extracting(HeldLock::kind, HeldLock::key, HeldLock::tree, HeldLock::boundThread)
                        .containsExactly(
                                org.assertj.core.groups.Tuple.tuple(LockKind.PATH, "a/b", tree, null),
                                org.assertj.core.groups.Tuple.tuple(
                                        LockKind.EXCLUSIVE,
                                        key,
                                        null,
                                        Thread.currentThread().getName()));
            } finally {
                javaLock.unlock();
            }
        }
    }

    @Test
    void waitingThreadsAreCountedByTheKeyTheyWaitFor() throws Exception {
        RedisLock lock = clients.lock();
        try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
            Future<Optional<LockHandle>> first = threads.submit(() -> lock.tryAcquire(key, Lease.fixed(LONG), LONG));
            Future<Optional<LockHandle>> second =
                    threads.submit(() -> lock.reading().tryAcquire(key, Lease.fixed(LONG), LONG));
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingCount() == 2);
            assertThat(lock.waitingThreads()).containsExactly(java.util.Map.entry(key, 2));
            first.cancel(true);
            second.cancel(true);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingCount() == 0);
        assertThat(lock.waitingThreads()).isEmpty();
    }

    @Test
    void aKeysStateComesFromRedisAndSaysWhetherThisInstanceHoldsIt() throws Exception {
        RedisLock lock = clients.lock();
        RedisLock otherInstance = clients.lock();

        assertThat(lock.keyState(key)).isEqualTo(new KeyState(key, false, null, false));
        try (LockHandle held = lock.acquire(key, Lease.fixed(LONG))) {
            KeyState state = lock.keyState(key);
            assertThat(state.held()).isTrue();
            assertThat(state.heldByThisInstance()).isTrue();
            assertThat(state.remainingLease()).isPositive().isLessThanOrEqualTo(LONG);

            KeyState seenByOther = otherInstance.keyState(key);
            assertThat(seenByOther.held()).isTrue();
            assertThat(seenByOther.heldByThisInstance()).isFalse();
        }
        assertThat(lock.keyState(key).held()).isFalse();
        assertThatThrownBy(() -> lock.keyState(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
    }

    @Test
    void theBackendCheckReportsTheServerTheRenewerAndTheSubscription() throws Exception {
        RedisLock lock = clients.lock();
        BackendState fresh = lock.checkBackend();
        assertThat(fresh.reachable()).isTrue();
        assertThat(fresh.roundTrip()).isNotNull();
        assertThat(fresh.error()).isNull();
        assertThat(fresh.renewerRunning()).isTrue();
        assertThat(fresh.subscription()).isEqualTo(BackendState.Subscription.NOT_STARTED);
        assertThat(fresh.isHealthy()).isTrue();

        lock.tryAcquire(key, Lease.fixed(LONG), Duration.ofMillis(10))
                .orElseThrow()
                .release();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lock.checkBackend().subscription() == BackendState.Subscription.SUBSCRIBED);

        lock.close();
        BackendState closed = lock.checkBackend();
        assertThat(closed.renewerRunning()).isFalse();
        assertThat(closed.subscription()).isEqualTo(BackendState.Subscription.CLOSED);
        assertThat(closed.isHealthy()).isFalse();
    }

    @Test
    void aServerThatDoesNotAnswerIsReportedUnreachableWithTheReason() {
        RedisLock lock = clients.lock();
        assertThat(lock.checkBackend().reachable()).isTrue();
        redis.pause();
        try {
            BackendState down = lock.checkBackend();
            assertThat(down.reachable()).isFalse();
            assertThat(down.roundTrip()).isNull();
            assertThat(down.error()).isNotBlank();
            assertThat(down.isHealthy()).isFalse();
        } finally {
            redis.resume();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> lock.checkBackend().reachable());
    }
}
