package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a {@link LockObserver} hears from a real lock on a real Redis. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockObserverTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final RecordingObserver heard = new RecordingObserver();
    private final String key = "observed:" + UUID.randomUUID();

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
    void anAcquisitionAndItsHoldAreHeardFromStartToRelease() {
        RedisLock lock = clients.lock(settings -> settings.observer(heard));

        LockHandle handle = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        handle.release();

        assertThat(heard.events)
                .containsExactly(
                        "start " + key + " EXCLUSIVE",
                        "acquired " + key,
                        "hold " + key + " EXCLUSIVE " + handle.fencingToken(),
                        "released " + key);
    }

    @Test
    void aRefusedAttemptIsHeardAsNotAcquiredAndStartsNoHold() {
        RedisLock lock = clients.lock(settings -> settings.observer(heard));
        RedisLock other = clients.lock();
        try (LockHandle held = other.tryAcquire(key, Lease.fixed(LONG)).orElseThrow()) {
            assertThat(lock.tryAcquire(key, Lease.fixed(LONG))).isEmpty();
        }

        assertThat(heard.events).containsExactly("start " + key + " EXCLUSIVE", "not acquired " + key);
    }

    @Test
    void aNestedAcquisitionIsAnAcquisitionButJoinsTheObservedHold() throws Exception {
        RedisLock lock = clients.lock(settings -> settings.observer(heard));

        try (LockHandle outer = lock.acquire(key, Lease.renewed());
                LockContext.Scope scope = LockContext.enter(outer)) {
            lock.acquire(key, Lease.renewed()).release();
        }

        assertThat(heard.events).filteredOn(event -> event.startsWith("hold ")).hasSize(1);
        assertThat(heard.events)
                .filteredOn(event -> event.startsWith("acquired "))
                .hasSize(2);
        assertThat(heard.events).last().isEqualTo("released " + key);
    }

    @Test
    void aLeaseThatRanOutIsHeardAsLostWithItsReason() {
        RedisLock lock = clients.lock(settings -> settings.observer(heard));
        LockHandle handle =
                lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(100))).orElseThrow();

        await().atMost(Duration.ofSeconds(5)).until(handle::isLost);
        assertThatThrownBy(handle::release).isInstanceOf(LockLostException.class);

        assertThat(heard.events).last().isEqualTo("lost " + key + " LEASE_EXPIRED");
        assertThat(heard.events).doesNotContain("released " + key);
    }

    @Test
    void aReleaseToAWaitingThreadOfTheSameInstanceIsHeardAsAHandover() throws Exception {
        RedisLock lock = clients.lock(settings -> settings.observer(heard));
        LockHandle first = lock.acquire(key, Lease.fixed(LONG));
        Future<Optional<LockHandle>> waiter = threads.submit(() -> lock.tryAcquire(key, Lease.fixed(LONG), LONG));
        await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingCount() == 1);

        first.release();
        LockHandle second = waiter.get(10, TimeUnit.SECONDS).orElseThrow();
        second.release();

        assertThat(heard.events).contains("handed over " + key);
        assertThat(heard.events).filteredOn(event -> event.startsWith("hold ")).hasSize(2);
    }

    @Test
    void anInterruptedWaitIsHeardAsFailed() throws Exception {
        RedisLock lock = clients.lock(settings -> settings.observer(heard));
        try (LockHandle held = clients.lock().acquire(key, Lease.fixed(LONG))) {
            Future<Optional<LockHandle>> waiter = threads.submit(() -> lock.tryAcquire(key, Lease.fixed(LONG), LONG));
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingCount() == 1);
            waiter.cancel(true);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> heard.events.contains("failed " + key + " InterruptedException"));
        }
        assertThat(heard.events).filteredOn(event -> event.startsWith("hold ")).isEmpty();
    }

    @Test
    void renewalsOfAutoRenewedLeasesAreHeard() throws Exception {
        RedisLock lock = clients.lock(settings ->
                settings.observer(heard).watchdogLease(Duration.ofSeconds(2)).renewInterval(Duration.ofMillis(100)));

        try (LockHandle handle = lock.acquire(key, Lease.renewed())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.events.contains("renewed 1"));
            assertThat(handle.isLost()).isFalse();
        }
        assertThat(heard.events).doesNotContain("renewal failed 1");
    }

    @Test
    void everyKindIsHeardUnderItsOwnNameAndAPathUnderItsTree() throws Exception {
        RedisLock lock = clients.lock(settings -> settings.observer(heard));

        lock.fair().acquire(key + ":fair", Lease.fixed(LONG)).release();
        lock.reading().acquire(key + ":read", Lease.fixed(LONG)).release();
        lock.tree(key + ":tree").acquire("a/b", Lease.fixed(LONG)).release();

        assertThat(heard.events)
                .filteredOn(event -> event.startsWith("start "))
                .containsExactly(
                        "start " + key + ":fair FAIR", "start " + key + ":read READ", "start " + key + ":tree PATH");
        assertThat(heard.events).contains("released " + key + ":fair", "released " + key + ":tree");
    }

    @Test
    void anObserverThatThrowsNeverChangesWhatTheLockDoes() throws Exception {
        LockObserver broken = new LockObserver() {
            @Override
            public Acquisition acquisitionStarted(String key, LockKind kind) {
                throw new IllegalStateException("observer bug");
            }

            @Override
            public Holding holdStarted(String key, LockKind kind, long fencingToken) {
                return new Holding() {
                    @Override
                    public void released() {
                        throw new IllegalStateException("observer bug");
                    }
                };
            }
        };
        RedisLock lock = clients.lock(settings -> settings.observer(LockObserver.of(List.of(broken, heard))));

        LockHandle handle = lock.acquire(key, Lease.fixed(LONG));
        assertThat(handle.isHeld()).isTrue();
        handle.release();

        assertThat(lock.tryAcquire(key, Lease.fixed(LONG))).isPresent();
    }

    /** Writes down what it hears, as short lines, in order. */
    private static final class RecordingObserver implements LockObserver {

        final Queue<String> events = new ConcurrentLinkedQueue<>();

        @Override
        public Acquisition acquisitionStarted(String key, LockKind kind) {
            events.add("start " + key + " " + kind);
            return new Acquisition() {
                @Override
                public void acquired() {
                    events.add("acquired " + key);
                }

                @Override
                public void notAcquired() {
                    events.add("not acquired " + key);
                }

                @Override
                public void failed(Throwable error) {
                    events.add("failed " + key + " " + error.getClass().getSimpleName());
                }
            };
        }

        @Override
        public Holding holdStarted(String key, LockKind kind, long fencingToken) {
            events.add("hold " + key + " " + kind + " " + fencingToken);
            return new Holding() {
                @Override
                public void released() {
                    events.add("released " + key);
                }

                @Override
                public void lost(LockLostException.Reason reason) {
                    events.add("lost " + key + " " + reason);
                }

                @Override
                public void dropped() {
                    events.add("dropped " + key);
                }
            };
        }

        @Override
        public void renewed(int holds) {
            events.add("renewed " + holds);
        }

        @Override
        public void renewalFailed(int holds) {
            events.add("renewal failed " + holds);
        }

        @Override
        public void handedOver(String key) {
            events.add("handed over " + key);
        }
    }
}
