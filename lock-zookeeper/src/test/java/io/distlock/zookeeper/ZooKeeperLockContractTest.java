package io.distlock.zookeeper;

import io.distlock.Lock;
import io.distlock.store.StoreLock;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.tck.net.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The suite every backend passes, on {@link StoreLock} over {@link ZooKeeperLeaseStore}; each client has a session,
 * which reaches the server through a proxy that a case can slow down.
 */
class ZooKeeperLockContractTest extends LockContract {

    /** The call timeout of the client that an outage cuts off. */
    private static final Duration OUTAGE_CALL_TIMEOUT = Duration.ofSeconds(2);

    /** How late the clients hear of a key removed behind their back: a notice still on its way over the network. */
    private static final Duration SLOW_NETWORK = Duration.ofMillis(250);

    private static TestZooKeeper zookeeper;
    private static TcpProxy network;

    private final List<StoreLock> locks = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
        network = TcpProxy.start("127.0.0.1", zookeeper.server().getPort());
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
        network.close();
    }

    @AfterEach
    void closeClients() {
        network.latency(Duration.ZERO);
        for (StoreLock lock : locks) {
            lock.close();
        }
    }

    @Override
    public Lock newClient() {
        return newClient(ZooKeeperLeaseStore.builder(connectedCurator()));
    }

    /**
     * Deletes the key's node and its queue, the holder's node among them, from a session that bypasses the clients'
     * proxy, which from then on until the case ends is slow. ZooKeeper tells the holder by a watch, and on the loopback
     * that notice usually comes before the holder's next call; the case is about a holder that has not heard yet, as
     * one whose notice is still on its way.
     */
    @Override
    public void removeBehindTheClientsBack(String key) throws Exception {
        network.latency(SLOW_NETWORK);
        try (CuratorFramework operator = zookeeper.newClient()) {
            removeHolder(operator, key);
        }
    }

    /**
     * Deletes the nodes that hold the key, through an operator's session.
     *
     * @param operator a session that bypasses the clients' proxy
     * @param key the contract's key
     * @throws Exception if ZooKeeper could not be asked
     */
    void removeHolder(CuratorFramework operator, String key) throws Exception {
        operator.delete()
                .deletingChildrenIfNeeded()
                .forPath(ZKPaths.makePath(ZooKeeperLeaseStore.DEFAULT_BASE_PATH, KeyNodes.nodeName(key)));
    }

    /** The nodes in the key's queue, the holder's among them: the lock is its own fair lock. */
    @Override
    public OptionalInt waitingInFairQueue(String key) throws Exception {
        try (CuratorFramework observer = zookeeper.newClient()) {
            String queue = ZKPaths.makePath(ZooKeeperLeaseStore.DEFAULT_BASE_PATH, KeyNodes.nodeName(key));
            return OptionalInt.of(
                    observer.checkExists().forPath(queue) == null
                            ? 0
                            : observer.getChildren().forPath(queue).size());
        }
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

    /**
     * The lock that the cases see of a client: the client itself, or a lock it makes, such as a tree's.
     *
     * @param client a new client, closed after the case
     * @return the lock the cases use
     */
    Lock seenAs(StoreLock client) {
        return client;
    }

    private Lock newClient(ZooKeeperLeaseStore.Builder store) {
        StoreLock lock = StoreLock.builder(store.build())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        locks.add(lock);
        return seenAs(lock);
    }

    private static CuratorFramework connectedCurator() {
        try {
            return zookeeper.newClient("127.0.0.1:" + network.port(), Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
