package io.distlock.zookeeper;

import io.distlock.store.StoreLock;
import io.distlock.tck.process.OpenedLock;
import io.distlock.tck.process.ProcessLockFactory;
import java.time.Duration;

/**
 * Builds a {@link StoreLock} over {@link ZooKeeperLeaseStore} on the ensemble at a connect string, with a client and
 * session of its own and the store's default session timeout, for the process contract.
 */
public final class ZooKeeperProcessLocks implements ProcessLockFactory {

    /** On the ensemble at {@code address}, a connect string such as {@link TestZooKeeper#connectString()}. */
    @Override
    public OpenedLock open(String address, Duration watchdogLease) {
        // No grace period: a lock the test JVM left held must not hold up the end of its test.
        StoreLock lock = StoreLock.builder(ZooKeeperLeaseStore.builder(address).build())
                .watchdogLease(watchdogLease)
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        return new OpenedLock(lock, lock::close);
    }
}
