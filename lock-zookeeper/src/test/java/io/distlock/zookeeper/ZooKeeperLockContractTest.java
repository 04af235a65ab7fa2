package io.distlock.zookeeper;

import io.distlock.Lock;
import io.distlock.store.StoreLock;
import io.distlock.test.contract.LockContract;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The suite every backend passes, on {@link StoreLock} over {@link ZooKeeperLeaseStore}; each client has a session. */
class ZooKeeperLockContractTest extends LockContract {

    private static TestZooKeeper zookeeper;

    private final List<StoreLock> locks = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @AfterEach
    void closeClients() {
        for (StoreLock lock : locks) {
            lock.close();
        }
    }

    @Override
    public Lock newClient() {
        try {
            StoreLock lock = StoreLock.builder(
                            ZooKeeperLeaseStore.builder(zookeeper.newClient()).build())
                    .shutdownGracePeriod(Duration.ZERO)
                    .build();
            locks.add(lock);
            return lock;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
