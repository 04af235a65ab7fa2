package io.distlock.tck.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises to callers that take overlapping sets of keys at the same time: taken all or none,
 * in the one global key order, they neither deadlock nor overlap; {@link LockContract} runs it for each
 * implementation, beside {@link MultiKeyContract}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // cases hold locks in try-with-resources blocks that never name them
public interface MultiKeyContentionContract extends ContractSubject {

    /** A lease that outlasts every test. */
    Lease CONTENDED_LEASE = Lease.fixed(Duration.ofSeconds(30));

    /**
     * Two callers that take overlapping keys in their own orders deadlock, each holding the key the other waits for;
     * taken all or none, in the one global order, both get their keys.
     */
    @Test
    default void keysTakenInEachCallersOwnOrderDeadlockButTakenTogetherTheyDoNot() throws Exception {
        String a = key("a");
        String b = key("b");
        Duration wait = Duration.ofMillis(500);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            // Both hold their first key until both have given up on the second, as two deadlocked callers would.
            CyclicBarrier bothHoldTheirFirstKey = new CyclicBarrier(2);
            CyclicBarrier bothGaveUp = new CyclicBarrier(2);
            List<Future<Boolean>> inOwnOrder = List.of(
                    pool.submit(() -> takeOneByOne(connectedClient(), a, b, wait, bothHoldTheirFirstKey, bothGaveUp)),
                    pool.submit(() -> takeOneByOne(connectedClient(), b, a, wait, bothHoldTheirFirstKey, bothGaveUp)));
            for (Future<Boolean> caller : inOwnOrder) {
                assertThat(caller.get(10, TimeUnit.SECONDS))
                        .as("each waited for the other's key")
                        .isFalse();
            }

            List<Future<Optional<MultiLockHandle>>> together = List.of(
                    pool.submit(() -> takeTogetherAndRelease(connectedClient(), List.of(a, b))),
                    pool.submit(() -> takeTogetherAndRelease(connectedClient(), List.of(b, a))));
            for (Future<Optional<MultiLockHandle>> caller : together) {
                assertThat(caller.get(10, TimeUnit.SECONDS)).isPresent();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean takeOneByOne(
            Lock lock, String first, String second, Duration wait, CyclicBarrier holding, CyclicBarrier done)
            throws Exception {
        try (LockHandle held = lock.tryAcquire(first, CONTENDED_LEASE).orElseThrow()) {
            holding.await(10, TimeUnit.SECONDS);
            Optional<LockHandle> next = lock.tryAcquire(second, CONTENDED_LEASE, wait);
            next.ifPresent(LockHandle::release);
            done.await(10, TimeUnit.SECONDS);
            return next.isPresent();
        }
    }

    private static Optional<MultiLockHandle> takeTogetherAndRelease(Lock lock, List<String> keys) throws Exception {
        Optional<MultiLockHandle> held = lock.tryAcquireAll(keys, CONTENDED_LEASE, Duration.ofSeconds(5));
        held.ifPresent(MultiLockHandle::release);
        return held;
    }

    /**
     * Threads of several clients take random overlapping pairs of keys, in random order, without limit on the wait,
     * and update a per-key counter in two steps; none deadlocks, no key is ever used by two at once, and no update is
     * lost. The same work without the locks loses updates, so the check can fail.
     */
    @Test
    default void overlappingSetsFromManyThreadsNeitherDeadlockNorOverlap() throws Exception {
        List<String> keys = List.of(key("k0"), key("k1"), key("k2"), key("k3"));
        Workers locked = Workers.run(keys, 3, 3, 25, this::newClient, true);
        assertThat(locked.overlaps()).isZero();
        assertThat(locked.lostUpdates()).isZero();

        Workers unlocked = Workers.run(keys, 3, 3, 25, this::newClient, false);
        assertThat(unlocked.overlaps() + unlocked.lostUpdates())
                .as("the unlocked path must race, or this test proves nothing")
                .isPositive();
    }

    /** The workers of {@link #overlappingSetsFromManyThreadsNeitherDeadlockNorOverlap}. */
    final class Workers {

        private final AtomicInteger[] users;
        private final AtomicLongArray counters;
        private final AtomicLongArray expected;
        private final AtomicInteger overlaps = new AtomicInteger();

        private Workers(int keyCount) {
            users = new AtomicInteger[keyCount];
            for (int i = 0; i < keyCount; i++) {
                users[i] = new AtomicInteger();
            }
            counters = new AtomicLongArray(keyCount);
            expected = new AtomicLongArray(keyCount);
        }

        static Workers run(
                List<String> keys,
                int clients,
                int threadsPerClient,
                int rounds,
                Supplier<Lock> newClient,
                boolean withLocks)
                throws Exception {
            Workers workers = new Workers(keys.size());
            ExecutorService pool = Executors.newFixedThreadPool(clients * threadsPerClient);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    Lock lock = newClient.get();
                    for (int t = 0; t < threadsPerClient; t++) {
                        SplittableRandom random = new SplittableRandom(c * 31L + t);
                        running.add(pool.submit(() -> {
                            for (int round = 0; round < rounds; round++) {
                                workers.round(lock, keys, random, withLocks);
                            }
                            return null;
                        }));
                    }
                }
                for (Future<?> worker : running) {
                    worker.get(40, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            return workers;
        }

        private void round(Lock lock, List<String> keys, SplittableRandom random, boolean withLocks) throws Exception {
            int first = random.nextInt(keys.size());
            int second = (first + 1 + random.nextInt(keys.size() - 1)) % keys.size();
            int[] picked = {first, second};
            if (!withLocks) {
                update(picked);
                return;
            }
            try (MultiLockHandle held = lock.acquireAll(List.of(keys.get(first), keys.get(second)), CONTENDED_LEASE)) {
                update(picked);
            }
        }

        private void update(int[] picked) throws InterruptedException {
            for (int key : picked) {
                if (users[key].incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
            }
            long[] read = new long[picked.length];
            for (int i = 0; i < picked.length; i++) {
                read[i] = counters.get(picked[i]);
            }
            Thread.sleep(1);
            for (int i = 0; i < picked.length; i++) {
                counters.set(picked[i], read[i] + 1);
                expected.incrementAndGet(picked[i]);
                users[picked[i]].decrementAndGet();
            }
        }

        int overlaps() {
            return overlaps.get();
        }

        long lostUpdates() {
            long lost = 0;
            for (int i = 0; i < counters.length(); i++) {
                lost += expected.get(i) - counters.get(i);
            }
            return lost;
        }
    }
}
