package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ZooKeeper's lock is fair by construction (its waiters queue as sequential nodes), so it offers itself as its {@link
 * Kind#FAIR} lock: waiters of several clients, each with a session of its own as separate processes have, get the key
 * in the order they arrived. Its readers queue in the same line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZooKeeperFairKindTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final String BASE = "/distlock-fair";

    private static TestZooKeeper zookeeper;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<StoreLock> locks = new ArrayList<>();
    private CuratorFramework observer;
    private String key;

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @BeforeEach
    void connect() throws Exception {
        observer = zookeeper.newClient();
        key = "fair:" + UUID.randomUUID();
    }

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        locks.forEach(StoreLock::close);
        observer.close();
    }

    @Test
    void theFairLockIsTheLockItselfBesideItsReadAndPathLocks() throws Exception {
        StoreLock lock = newLock();

        assertThat(lock.kind(Kind.FAIR)).containsSame(lock);
        assertThat(lock.fair()).isSameAs(lock);
        assertThat(lock.kind(Kind.READ)).isPresent();
        assertThat(lock.kind(Kind.PATH)).isPresent();
    }

    @Test
    void waitersOfSeveralClientsGetTheKeyInTheOrderTheyArrived() throws Exception {
        LockHandle held = newLock().fair().acquire(key, Lease.fixed(LONG));
        List<Lock> waiters = new ArrayList<>();
        for (int arrival = 1; arrival <= 4; arrival++) {
            waiters.add(newLock().fair());
        }

        assertThat(orderOfTurns(held, waiters)).containsExactly(1, 2, 3, 4);
    }

    /**
     * Readers queue with the writers: a reader that comes after a waiting writer does not join the readers ahead of
     * the writer, so readers and writers alike take the key in the order they came.
     */
    @Test
    void readersAndWritersOfSeveralClientsGetTheKeyInTheOrderTheyArrived() throws Exception {
        LockHandle held = newLock().acquire(key, Lease.fixed(LONG));
        List<Lock> waiters = List.of(
                newLock().reading(), newLock(), newLock().reading(), newLock().reading());

        List<Integer> order = orderOfTurns(held, waiters);

        assertThat(order.subList(0, 2))
                .as("the first reader, then the writer behind it")
                .containsExactly(1, 2);
        assertThat(order.subList(2, 4)).as("the readers behind the writer").containsExactlyInAnyOrder(3, 4);
    }

    /**
     * Queues the waiters one after the other, each once the one before is in the queue, then releases the held key
     * and answers the waiters' numbers (from 1) in the order they got their turn.
     */
    private List<Integer> orderOfTurns(LockHandle held, List<Lock> waiters) throws Exception {
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Future<?>> turns = new ArrayList<>();
        for (int arrival = 1; arrival <= waiters.size(); arrival++) {
            int waiter = arrival;
            Lock lock = waiters.get(waiter - 1);
            turns.add(threads.submit(() -> {
                try (LockHandle turn = lock.acquire(key, Lease.fixed(LONG))) {
                    order.add(waiter);
                }
                return null;
            }));
            await().atMost(Duration.ofSeconds(20)).until(() -> queueLength() == waiter + 1);
        }

        held.release();
        for (Future<?> turn : turns) {
            turn.get(20, TimeUnit.SECONDS);
        }
        return order;
    }

    private StoreLock newLock() throws Exception {
        ZooKeeperLeaseStore store = ZooKeeperLeaseStore.builder(zookeeper.newClient())
                .basePath(BASE)
                .build();
        StoreLock lock = StoreLock.builder(store).build();
        locks.add(lock);
        return lock;
    }

    private int queueLength() throws Exception {
        String parent = ZKPaths.makePath(BASE, KeyNodes.nodeName(key));
        return observer.checkExists().forPath(parent) == null
                ? 0
                : observer.getChildren().forPath(parent).size();
    }
}
