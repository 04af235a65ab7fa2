package io.distlock.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.HeldLockDescriptor;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.KeyDescriptor;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.LocksDescriptor;
import io.distlock.monitor.LockKind;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import io.distlock.spi.InstanceNames;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** What the endpoint shows of real holds and waiters on a real Redis. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedLockEndpointTest {

    /** What is shown, not to whom: {@link DistributedLockEndpointShowValuesTest} has that. */
    private static final String SHOW_KEYS = "management.endpoint.distlock.show-values=always";

    private final String key = "actuator:" + UUID.randomUUID();

    private static ApplicationContextRunner onSharedRedis() {
        return ActuatorContexts.onSharedRedis().withPropertyValues(SHOW_KEYS);
    }

    @Test
    void nestedAcquisitionShowsAsOneHoldOfDepthTwo() {
        onSharedRedis().run(context -> {
            Lock lock = context.getBean(Lock.class);
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            Instant before = Instant.now();
            lock.runWithLock(key, Lease.renewed(), Duration.ofSeconds(5), () -> {
                try (LockHandle nested = lock.tryAcquire(key).orElseThrow()) {
                    LocksDescriptor locks = endpoint.locks(SecurityContext.NONE);
                    assertThat(locks.heldCount()).isEqualTo(1);
                    HeldLockDescriptor held = locks.held().get(0);
                    assertThat(held.key()).isEqualTo(key);
                    assertThat(held.tree()).isNull();
                    assertThat(held.kind()).isEqualTo(LockKind.EXCLUSIVE);
                    assertThat(held.reentrancyDepth()).isEqualTo(2);
                    assertThat(held.fencingToken()).isEqualTo(nested.fencingToken());
                    assertThat(held.lease()).isEqualTo("renewed");
                    assertThat(held.thread()).isEqualTo(DistributedLockEndpoint.ANY_THREAD);
                    assertThat(held.acquiredBy())
                            .isEqualTo(Thread.currentThread().getName());
                    assertThat(Instant.parse(held.since())).isAfterOrEqualTo(before.minusSeconds(1));
                    assertThat(Duration.parse(held.heldFor())).isGreaterThanOrEqualTo(Duration.ZERO);
                    assertThat(Duration.parse(held.remainingLease())).isPositive();
                }
            });
            assertThat(endpoint.locks(SecurityContext.NONE).held()).isEmpty();
        });
    }

    @Test
    void holdsAreListedOldestFirstWithTheirLeases() {
        String younger = key + ":younger";
        onSharedRedis().run(context -> {
            Lock lock = context.getBean(Lock.class);
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            try (LockHandle first = lock.tryAcquire(key).orElseThrow();
                    LockHandle second = lock.tryAcquire(younger, Lease.fixed(Duration.ofSeconds(30)))
                            .orElseThrow()) {
                List<HeldLockDescriptor> held =
                        endpoint.locks(SecurityContext.NONE).held();
                assertThat(held).extracting(HeldLockDescriptor::key).containsExactly(key, younger);
                assertThat(held).extracting(HeldLockDescriptor::lease).containsExactly("renewed", "fixed");
                assertThat(held)
                        .extracting(HeldLockDescriptor::fencingToken)
                        .containsExactly(first.fencingToken(), second.fencingToken());
                assertThat(Duration.parse(held.get(1).remainingLease())).isLessThanOrEqualTo(Duration.ofSeconds(30));
            }
        });
    }

    @Test
    void pathLockShowsItsPathAndTree() {
        String tree = key + ":tree";
        onSharedRedis().run(context -> {
            Lock paths = context.getBean(Lock.class).tree(tree);
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            try (LockHandle held = paths.tryAcquire("warehouse/aisle-7").orElseThrow()) {
                HeldLockDescriptor hold =
                        endpoint.locks(SecurityContext.NONE).held().get(0);
                assertThat(hold.key()).isEqualTo("warehouse/aisle-7");
                assertThat(hold.tree()).isEqualTo(tree);
                assertThat(hold.kind()).isEqualTo(LockKind.PATH);
                assertThat(hold.fencingToken()).isEqualTo(held.fencingToken());
            }
        });
    }

    @Test
    void javaLockShowsTheThreadThatOwnsIt() {
        onSharedRedis().run(context -> {
            Lock lock = context.getBean(Lock.class);
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            String threadName = "actuator-owner-" + UUID.randomUUID();
            CountDownLatch locked = new CountDownLatch(1);
            CountDownLatch unlock = new CountDownLatch(1);
            Thread owner = new Thread(
                    () -> {
                        java.util.concurrent.locks.Lock view = lock.asJavaLock(key, Lease.renewed());
                        view.lock();
                        try {
                            locked.countDown();
                            unlock.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            view.unlock();
                        }
                    },
                    threadName);
            owner.start();
            try {
                assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
                HeldLockDescriptor held =
                        endpoint.locks(SecurityContext.NONE).held().get(0);
                assertThat(held.key()).isEqualTo(key);
                assertThat(held.thread()).isEqualTo(threadName);
                assertThat(held.acquiredBy()).isEqualTo(threadName);
                assertThat(held.reentrancyDepth()).isEqualTo(1);
            } finally {
                unlock.countDown();
                owner.join(10_000);
            }
            assertThat(endpoint.locks(SecurityContext.NONE).held()).isEmpty();
        });
    }

    @Test
    void waitingThreadShowsUnderItsKey() {
        onSharedRedis().run(context -> {
            Lock lock = context.getBean(Lock.class);
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            CompletableFuture<Boolean> waiter;
            try (LockHandle held = lock.tryAcquire(key).orElseThrow()) {
                waiter = CompletableFuture.supplyAsync(() -> acquireAndRelease(lock, Duration.ofSeconds(30)));
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> endpoint.locks(SecurityContext.NONE).waitingCount() == 1);
                LocksDescriptor locks = endpoint.locks(SecurityContext.NONE);
                assertThat(locks.waiting()).containsExactly(Map.entry(key, 1));
                assertThat(locks.heldCount()).isEqualTo(1);
            }
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(endpoint.locks(SecurityContext.NONE).waiting()).isEmpty();
        });
    }

    @Test
    void keyHeldByThisInstance() {
        onSharedRedis().withPropertyValues("spring.application.name=orders").run(context -> {
            Lock lock = context.getBean(Lock.class);
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            try (LockHandle held =
                    lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))).orElseThrow()) {
                KeyDescriptor state = endpoint.key(SecurityContext.NONE, key);
                assertThat(state.key()).isEqualTo(key);
                assertThat(state.held()).isTrue();
                assertThat(state.heldByThisInstance()).isTrue();
                assertThat(Duration.parse(state.remainingLease()))
                        .isPositive()
                        .isLessThanOrEqualTo(Duration.ofSeconds(30));
                assertThat(state.holder())
                        .as("by default the application's name and the host's")
                        .isEqualTo(InstanceNames.ofThisProcess("orders"))
                        .startsWith("orders@");
                assertThat(Instant.parse(state.heldSince()))
                        .isBefore(Instant.now().plusSeconds(60));
            }
            assertThat(endpoint.key(SecurityContext.NONE, key).held()).isFalse();
        });
    }

    @Test
    void keyHeldByAnotherInstanceNamesThatInstance() {
        onSharedRedis()
                .withPropertyValues("distlock.instance-name=admin@host-2")
                .run(context -> {
                    DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
                    Instant before = Instant.now().minusSeconds(60);
                    try (RedisLock other = otherInstance(context);
                            LockHandle held = other.tryAcquire(key).orElseThrow()) {
                        KeyDescriptor state = endpoint.key(SecurityContext.NONE, key);
                        assertThat(state.held()).isTrue();
                        assertThat(state.heldByThisInstance()).isFalse();
                        assertThat(state.remainingLease()).isNotNull();
                        assertThat(state.holder()).isEqualTo("orders@host-1");
                        assertThat(Instant.parse(state.heldSince()))
                                .isBetween(before, Instant.now().plusSeconds(60));
                        assertThat(endpoint.locks(SecurityContext.NONE).held()).isEmpty();
                    }
                });
    }

    @Test
    void freeKey() {
        onSharedRedis().run(context -> {
            KeyDescriptor state = context.getBean(DistributedLockEndpoint.class).key(SecurityContext.NONE, key);
            assertThat(state).isEqualTo(new KeyDescriptor(key, false, null, false, null, null));
        });
    }

    @Test
    void invalidKeyIsAnInvalidRequestNamingTheRule() {
        onSharedRedis().run(context -> {
            DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
            assertThatThrownBy(() -> endpoint.key(SecurityContext.NONE, " "))
                    .isInstanceOf(InvalidEndpointRequestException.class)
                    .hasMessageContaining("key")
                    .hasCauseInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertThat(((InvalidEndpointRequestException) e).getReason())
                            .isEqualTo(e.getCause().getMessage()));
            assertThatThrownBy(() -> endpoint.key(SecurityContext.NONE, "k".repeat(Lock.MAX_KEY_LENGTH + 1)))
                    .isInstanceOf(InvalidEndpointRequestException.class)
                    .hasMessageContaining(String.valueOf(Lock.MAX_KEY_LENGTH));
        });
    }

    @Test
    void redlockListsItsHoldsButCannotReadOneKey() {
        List<TestRedis> nodes = List.of(TestRedis.start(), TestRedis.start(), TestRedis.start());
        try {
            ActuatorContexts.runner()
                    .withPropertyValues(SHOW_KEYS)
                    .withPropertyValues(
                            "distlock.redlock.nodes[0].url=" + nodes.get(0).uri(),
                            "distlock.redlock.nodes[1].url=" + nodes.get(1).uri(),
                            "distlock.redlock.nodes[2].url=" + nodes.get(2).uri())
                    .run(context -> {
                        assertThat(context.getBean(Lock.class)).isInstanceOf(Redlock.class);
                        Lock lock = context.getBean(Lock.class);
                        DistributedLockEndpoint endpoint = context.getBean(DistributedLockEndpoint.class);
                        try (LockHandle held = lock.tryAcquire(key).orElseThrow()) {
                            assertThat(endpoint.locks(SecurityContext.NONE).held())
                                    .extracting(HeldLockDescriptor::key)
                                    .containsExactly(key);
                            assertThatThrownBy(() -> endpoint.key(SecurityContext.NONE, key))
                                    .isInstanceOf(InvalidEndpointRequestException.class)
                                    .hasMessageContainingAll("Redlock", "without a key")
                                    .hasCauseInstanceOf(UnsupportedOperationException.class);
                        }
                    });
        } finally {
            nodes.forEach(TestRedis::close);
        }
    }

    private boolean acquireAndRelease(Lock lock, Duration wait) {
        try {
            Optional<LockHandle> handle = lock.tryAcquire(key, wait);
            handle.ifPresent(LockHandle::release);
            return handle.isPresent();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static RedisLock otherInstance(AssertableApplicationContext context) {
        return RedisLock.builder(context.getBean(RedisConnectionFactory.class))
                .instanceName("orders@host-1")
                .shutdownGracePeriod(Duration.ZERO)
                .build();
    }
}
