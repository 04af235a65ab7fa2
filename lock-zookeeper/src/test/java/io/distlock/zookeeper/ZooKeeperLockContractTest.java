package io.distlock.zookeeper;

import io.distlock.Lock;
import io.distlock.store.StoreLock;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The suite every backend passes, on {@link StoreLock} over {@link ZooKeeperLeaseStore}; each client has a session. */
class ZooKeeperLockContractTest extends LockContract {

    /** The call timeout of the client that an outage cuts off. */
    private static final Duration OUTAGE_CALL_TIMEOUT = Duration.ofSeconds(2);

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
        return newClient(ZooKeeperLeaseStore.builder(connectedCurator()));
    }

    /** The outage stops the server, as a crashed ensemble; closing it starts the server again on the same port. */
    @Override
    public StoreOutage storeOutage() {
        Lock client = newClient(ZooKeeperLeaseStore.builder(connectedCurator()).callTimeout(OUTAGE_CALL_TIMEOUT));
        return new StoreOutage() {
            @Override
            public Lock client() {
                return client;
            }

            @Override
            public void begin() {
                try {
                    zookeeper.server().stop();
                } catch (Exception e) {
                    throw new IllegalStateException("could not stop ZooKeeper", e);
                }
            }

            @Override
            public Duration callTimeout() {
                return OUTAGE_CALL_TIMEOUT;
            }

            @Override
            public void close() {
                try {
                    zookeeper.server().restart();
                } catch (Exception e) {
                    throw new IllegalStateException("could not start ZooKeeper again", e);
                }
            }
        };
    }

    private Lock newClient(ZooKeeperLeaseStore.Builder store) {
        StoreLock lock = StoreLock.builder(store.build())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        locks.add(lock);
        return lock;
    }

    private static org.apache.curator.framework.CuratorFramework connectedCurator() {
        try {
            return zookeeper.newClient();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
