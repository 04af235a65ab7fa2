package io.distlock.zookeeper;

import io.distlock.tck.process.ProcessContract;
import io.distlock.tck.process.ProcessLockFactory;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link ProcessContract} on {@link io.distlock.store.StoreLock} over {@link ZooKeeperLeaseStore}. The server grants
 * the store's default 10 s sessions, as a production ensemble does, so that a killed holder's key is freed by its
 * lease, which a waiter ends, before the ensemble expires the holder's session; {@link KilledHolderSessionTest} has a
 * session that ends first.
 */
class ZooKeeperProcessContractTest extends ProcessContract {

    private static TestZooKeeper zookeeper;

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @Override
    protected Class<? extends ProcessLockFactory> lockFactory() {
        return ZooKeeperProcessLocks.class;
    }

    @Override
    protected String storeAddress() {
        return zookeeper.connectString();
    }
}
