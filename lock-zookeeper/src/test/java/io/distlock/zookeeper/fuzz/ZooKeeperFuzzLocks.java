package io.distlock.zookeeper.fuzz;

import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLock;
import io.distlock.tck.fuzz.FuzzLock;
import io.distlock.tck.fuzz.FuzzLockFactory;
import io.distlock.tck.fuzz.FuzzTarget;
import io.distlock.tck.fuzz.LockUnderTest;
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
public final class ZooKeeperFuzzLocks implements FuzzLockFactory {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    /**
     * Shorter than the default 15 s, so that a waiter behind a queued node its client forgot gives that node up, after
     * twice this, well within the 20 s a worker waits for its threads after the run.
     */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

    /**
     * On the run's connect string ({@link FuzzTarget#address()}): StoreLock, for the control a short-lease one, a
     * semaphore of StoreLock, StoreLock with its read lock, or the path lock of one tree.
     */
    @Override
    public LockUnderTest open(FuzzTarget target) {
        CuratorFramework reads = connect(target.address());
        LeaseStore zooKeeper = ZooKeeperLeaseStore.builder(target.address())
                .callTimeout(CALL_TIMEOUT)
                .build();
        LeaseStore store = target.leaseStore(zooKeeper);
        StoreLock lock = StoreLock.builder(store)
                .watchdogLease(target.watchdogLease())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        String tree = target.treeName();
        boolean paths = target.variant().equals(FuzzLock.STORE_PATH);
        Lock driven = paths ? Kind.PATH.of(lock).tree(tree) : lock;
        LockUnderTest.Builder builder = LockUnderTest.builder(driven, new ZooKeeperLockView(reads));
        if (target.permits() > 0) {
            builder.readers(Kind.SEMAPHORE.of(lock).permits(target.permits()))
                    .lockKeys((key, permit) -> permit ? ZooKeeperLockView.PERMITS + key : key);
        } else if (target.variant().equals(FuzzLock.STORE_READ_WRITE)) {
            builder.readers(Kind.READ.of(lock)).lockKeys((key, reading) -> ZooKeeperLockView.READS + key);
        } else if (paths) {
            builder.lockKeys((path, reading) -> ZooKeeperLockView.pathKey(tree, path));
        }
        return builder.onClose(() -> {
                    lock.close();
                    reads.close();
                })
                .build();
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
