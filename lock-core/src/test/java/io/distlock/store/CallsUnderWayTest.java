package io.distlock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.memory.InMemoryLeaseStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A store that stopped answering cannot make {@link StoreLock} leave one more worker thread behind with every attempt:
 * past {@link StoreLockBuilder#maxCallsUnderWay(int)} calls under way, an acquisition fails at once without asking the
 * store, and the calls count again once the store answers. The store stalls on purpose here, over the in-memory store:
 * what is tested is the lock's bookkeeping, the same over every store.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CallsUnderWayTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));

    private final CountDownLatch answering = new CountDownLatch(1);
    private final AtomicInteger asked = new AtomicInteger();

    @Test
    void attemptsPastTheBoundFailAtOnceWithoutAskingAStoreThatStoppedAnswering() throws Exception {
        try (StoreLock lock = StoreLock.builder(new StalledStore())
                .maxCallsUnderWay(3)
                .shutdownGracePeriod(Duration.ZERO)
                .build()) {
            for (int i = 0; i < 3; i++) {
                String key = "stalled:" + i;
                assertThatThrownBy(() -> lock.tryAcquire(key, LEASE, Duration.ofMillis(50)))
                        .isInstanceOf(LockBackendException.class)
                        .hasMessageContaining("did not answer");
            }
            assertThat(asked).as("calls left under way by callers that gave up").hasValue(3);

            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.tryAcquire("stalled:3", LEASE, Duration.ofSeconds(10)))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("3 calls of this lock under way")
                    .hasMessageContaining("'stalled:3' was not tried");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("at once, not at the end of its wait")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(asked).as("the store was not asked").hasValue(3);

            answering.countDown();
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(lock.tryAcquire("stalled:4", LEASE, Duration.ofMillis(500)))
                            .isPresent());
        }
    }

    @Test
    void theBoundIsCheckedWhenTheLockIsBuilt() {
        assertThatThrownBy(() -> StoreLock.builder(new InMemoryLeaseStore())
                        .maxCallsUnderWay(0)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max calls under way must be at least 1, but was 0");
    }

    /** The in-memory store, whose attempts wait until {@link #answering} opens. */
    private final class StalledStore implements LeaseStore {

        private final InMemoryLeaseStore store = new InMemoryLeaseStore();

        @Override
        public Acquisition begin(String key, String owner, Duration lease) {
            Acquisition acquisition = store.begin(key, owner, lease);
            return new Acquisition() {
                @Override
                public StoreLease tryTake() {
                    asked.incrementAndGet();
                    try {
                        answering.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                    return acquisition.tryTake();
                }

                @Override
                public void awaitChance(long deadlineNanos) throws InterruptedException {
                    acquisition.awaitChance(deadlineNanos);
                }

                @Override
                public void close() {
                    acquisition.close();
                }
            };
        }

        @Override
        public void validateKey(String key) {
            store.validateKey(key);
        }

        @Override
        public Optional<Duration> remainingLease(String key) {
            return store.remainingLease(key);
        }

        @Override
        public void ping() {
            store.ping();
        }

        @Override
        public String describe() {
            return "a stalled store";
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
