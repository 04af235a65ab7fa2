package io.distlock.autoconfigure.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.autoconfigure.internal.WarmUpCalls;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.monitor.BackendState;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.redis.RedisLock;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * {@code distlock.startup.*}: the lock is readied while the context starts, through the annotation's whole way, so the
 * application's first call finds it ready; invalid settings fail start-up naming the property.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockStartupPreparationTest {

    private final ApplicationContextRunner inMemory = DistlockContexts.runner()
            .withConfiguration(AutoConfigurations.of(LockStartupAutoConfiguration.class))
            .withPropertyValues("distlock.backend=in-memory")
            .withBean(HoldsSeen.class, HoldsSeen::new);

    @Test
    void warmUpCallsTakeTheWarmUpKeyThroughTheAnnotationBeforeTheContextIsReady() {
        inMemory.withPropertyValues("distlock.startup.warm-up-calls=7").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(HoldsSeen.class).keys)
                    .containsOnly(WarmUpCalls.KEY)
                    .hasSize(7);
            assertThat(AopUtils.isAopProxy(context.getBean(WarmUpCalls.class))).isTrue();
        });
    }

    @Test
    void withoutTheAnnotationTheWarmUpCallsTheLockItself() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class,
                        AopAutoConfiguration.class,
                        DistributedLockAutoConfiguration.class,
                        LockStartupAutoConfiguration.class))
                .withPropertyValues("distlock.backend=in-memory", "distlock.startup.warm-up-calls=3")
                .withBean(HoldsSeen.class, HoldsSeen::new)
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(WarmUpCalls.class);
                    assertThat(context.getBean(HoldsSeen.class).keys)
                            .containsExactly(WarmUpCalls.KEY, WarmUpCalls.KEY, WarmUpCalls.KEY);
                });
    }

    @Test
    void aSlowStoreEndsTheWarmUpAtItsFirstSlowCallAfterTheFirst(CapturedOutput output) {
        SlowLock slow = new SlowLock(StoreLock.builder(new InMemoryLeaseStore()).build());
        DistlockContexts.runner()
                .withConfiguration(AutoConfigurations.of(LockStartupAutoConfiguration.class))
                .withPropertyValues("distlock.startup.warm-up-calls=50")
                .withBean(Lock.class, () -> slow)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(slow.acquisitions).hasValue(2);
                    assertThat(output).contains("distlock's warm-up call 2 took", "it stops warming up");
                });
    }

    @Test
    void preparationSwitchedOffMakesNoCall() {
        inMemory.withPropertyValues("distlock.startup.prepare=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(LockStartupPreparation.class);
            assertThat(context.getBean(HoldsSeen.class).keys).isEmpty();
        });
    }

    @Test
    void aRedisLockIsSubscribedOnceTheContextIsReadyOnlyWhenPrepared() {
        ApplicationContextRunner onRedis = DistlockContexts.onSharedRedis()
                .withConfiguration(AutoConfigurations.of(LockStartupAutoConfiguration.class));

        onRedis.run(context -> assertThat(((InspectableLock) context.getBean(RedisLock.class))
                        .checkBackend()
                        .subscription())
                .isEqualTo(BackendState.Subscription.SUBSCRIBED));
        onRedis.withPropertyValues("distlock.startup.prepare=false")
                .run(context -> assertThat(
                                context.getBean(RedisLock.class).checkBackend().subscription())
                        .isEqualTo(BackendState.Subscription.NOT_STARTED));
    }

    @Test
    void warmUpCallsOutsideTheAllowedRangeFailStartUpNamingTheProperty() {
        inMemory.withPropertyValues("distlock.startup.warm-up-calls=-1")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("distlock.startup.warm-up-calls")
                        .hasMessageContaining("must be from 0 (none) to 10000"));
    }

    @Test
    void aTimeoutBelowOneMillisecondFailsStartUpNamingTheProperty() {
        inMemory.withPropertyValues("distlock.startup.timeout=0s")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("distlock.startup.timeout")
                        .hasMessageContaining("must be at least 1 ms"));
    }

    /** A store that answers each acquisition later than a warm-up call may take. */
    static final class SlowLock implements Lock {

        private final Lock store;
        final AtomicInteger acquisitions = new AtomicInteger();

        SlowLock(Lock store) {
            this.store = store;
        }

        @Override
        public Optional<LockHandle> tryAcquire(String key, Lease lease) {
            return store.tryAcquire(key, lease);
        }

        @Override
        public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
            acquisitions.incrementAndGet();
            // The slow answer is what is tested: the store's latency, not a wait for something to happen.
            Thread.sleep(LockStartupPreparation.SLOW_CALL.toMillis() + 100);
            return store.tryAcquire(key, lease, wait);
        }

        @Override
        public LockHandle acquire(String key, Lease lease) throws InterruptedException {
            return store.acquire(key, lease);
        }

        @Override
        public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
            return store.asJavaLock(key, lease);
        }
    }

    /** Every key whose hold started, in order. */
    static final class HoldsSeen implements LockObserver {

        final List<String> keys = new CopyOnWriteArrayList<>();

        @Override
        public Holding holdStarted(String key, LockKind kind, long fencingToken) {
            keys.add(key);
            return LockObserver.super.holdStarted(key, kind, fencingToken);
        }
    }
}
