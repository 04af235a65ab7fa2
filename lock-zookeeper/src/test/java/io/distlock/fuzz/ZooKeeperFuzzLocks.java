package io.distlock.fuzz;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLock;
import io.distlock.zookeeper.ZooKeeperLeaseStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Builds a fuzz worker's {@link StoreLock} on the ZooKeeper at a connect string, and the checker's
 * {@link ZooKeeperLockView} on a client and session of its own.
 */
final class ZooKeeperFuzzLocks implements FuzzLockFactory {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    @Override
    public LockUnderTest open(String address, LockKind kind) {
        CuratorFramework reads = connect(address);
        LeaseStore store = ZooKeeperLeaseStore.builder(address).build();
        if (kind == LockKind.SHORT_LEASE_STORE) {
            store = new ShortLeaseStore(store);
        }
        StoreLock lock = StoreLock.builder(store)
                .watchdogLease(LeaseProfile.WATCHDOG_LEASE)
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        return LockUnderTest.inStore(lock, new ZooKeeperLockView(reads), () -> {
            lock.close();
            reads.close();
        });
    }

    private static CuratorFramework connect(String address) {
        CuratorFramework client = CuratorFrameworkFactory.newClient(address, new ExponentialBackoffRetry(50, 5));
        client.start();
        try {
            if (!client.blockUntilConnected((int) CONNECT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                client.close();
                throw new IllegalStateException("no connection to ZooKeeper at " + address);
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting to ZooKeeper at " + address, e);
        }
        return client;
    }
}
