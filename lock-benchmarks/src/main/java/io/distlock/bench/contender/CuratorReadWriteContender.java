package io.distlock.bench.contender;

import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * Curator's {@link InterProcessReadWriteLock} on the run's ZooKeeper, through one Curator client per worker configured
 * like {@link CuratorMutexContender}'s: {@code readLock()} for reads, {@code writeLock()} for writes, a new lock per
 * acquisition as that contender makes a new mutex. Its locks have no lease, so the benchmark's lease is not passed on.
 */
final class CuratorReadWriteContender implements Contender {

    private static final String BASE_PATH = "/bench-curator-rw";

    private final CuratorFramework client;

    CuratorReadWriteContender(BackendEndpoint ensemble) {
        this.client = CuratorMutexContender.connect(ensemble);
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        return CuratorMutexContender.acquire(readWriteLock(key).writeLock(), key, wait);
    }

    @Override
    public @Nullable Release tryAcquireRead(String key, Duration lease, Duration wait) throws InterruptedException {
        return CuratorMutexContender.acquire(readWriteLock(key).readLock(), key, wait);
    }

    private InterProcessReadWriteLock readWriteLock(String key) {
        return new InterProcessReadWriteLock(client, ZKPaths.makePath(BASE_PATH, key));
    }

    @Override
    public void close() {
        client.close();
    }
}
