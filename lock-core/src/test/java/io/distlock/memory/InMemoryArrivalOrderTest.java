package io.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-memory store gives a free key to the acquisition that waited longest, whichever lock over the store it came
 * through, and a try without a wait does not jump the line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InMemoryArrivalOrderTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final List<StoreLock> locks = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        locks.forEach(StoreLock::close);
    }

    @Test
    void waitersOfSeveralLocksGetTheKeyInTheOrderTheyCame() throws Exception {
        LockHandle held = newLock().fair().acquire("order", LEASE);
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Future<?>> waiters = new ArrayList<>();
        for (int arrival = 1; arrival <= 4; arrival++) {
            int waiter = arrival;
            Lock fair = newLock().fair();
            waiters.add(threads.submit(() -> {
                try (LockHandle turn = fair.acquire("order", LEASE)) {
                    order.add(waiter);
                }
                return null;
            }));
            // The next waiter comes only once this one is in line.
            await().atMost(Duration.ofSeconds(20)).until(() -> store.waiting("order") == waiter);
        }

        Optional<LockHandle> barging = newLock().tryAcquire("order", LEASE);
        held.release();
        for (Future<?> waiter : waiters) {
            waiter.get(20, TimeUnit.SECONDS);
        }

        assertThat(barging).as("a try while the key was held").isEmpty();
        assertThat(order).containsExactly(1, 2, 3, 4);
        assertThat(store.waiting("order")).isZero();
    }

    /** A waiter that gives up leaves the line, and the one behind it is served. */
    @Test
    void aWaiterThatGivesUpLeavesTheLine() throws Exception {
        LockHandle held = newLock().acquire("line", LEASE);
        Future<Optional<LockHandle>> leaving =
                threads.submit(() -> newLock().tryAcquire("line", LEASE, Duration.ofMillis(300)));
        await().atMost(Duration.ofSeconds(20)).until(() -> store.waiting("line") == 1);
        Lock next = newLock();
        Future<LockHandle> staying = threads.submit(() -> next.acquire("line", LEASE));
        await().atMost(Duration.ofSeconds(20)).until(() -> store.waiting("line") == 2);

        assertThat(leaving.get(20, TimeUnit.SECONDS)).isEmpty();
        await().atMost(Duration.ofSeconds(20)).until(() -> store.waiting("line") == 1);
        held.release();

        try (LockHandle turn = staying.get(20, TimeUnit.SECONDS)) {
            assertThat(turn.isHeld()).isTrue();
        }
    }

    private StoreLock newLock() {
        StoreLock lock = StoreLock.builder(store).build();
        locks.add(lock);
        return lock;
    }
}
