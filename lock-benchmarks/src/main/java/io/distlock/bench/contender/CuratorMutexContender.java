package io.distlock.bench.contender;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * Curator's {@link InterProcessMutex} on the run's ZooKeeper, through one Curator client per worker, configured like
 * the one {@code ZooKeeperLeaseStore} creates for itself. It has no lease: a holder keeps the lock while its session
 * lives, so the benchmark's lease is not passed on.
 *
 * <p>Each acquisition makes a mutex of its own: the mutex queues its callers in ZooKeeper, each with a node of its
 * own, so threads of one JVM wait for each other as processes do, and scenario 1's fresh keys leave no mutex behind.
 */
final class CuratorMutexContender implements Contender {

    private static final String BASE_PATH = "/bench-curator-mutex";
    private static final int SESSION_MILLIS = 10_000;
    private static final int CONNECT_MILLIS = 10_000;

    private final CuratorFramework client;

    CuratorMutexContender(BackendEndpoint ensemble) {
        this.client = connect(ensemble);
    }

    /** A started Curator client configured like the one {@code ZooKeeperLeaseStore} creates for itself. */
    static CuratorFramework connect(BackendEndpoint ensemble) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(ensemble.address())
                .sessionTimeoutMs(SESSION_MILLIS)
                .connectionTimeoutMs(CONNECT_MILLIS)
                .retryPolicy(new ExponentialBackoffRetry(100, 3))
                .build();
        client.start();
        return client;
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        return acquire(new InterProcessMutex(client, ZKPaths.makePath(BASE_PATH, key)), key, wait);
    }

    /** Takes a Curator mutex, or one side of its read-write lock, waiting up to {@code wait}; null if it did not. */
    static @Nullable Release acquire(InterProcessMutex mutex, String key, Duration wait) throws InterruptedException {
        try {
            if (!mutex.acquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return null;
            }
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Curator could not take " + key + ": " + e, e);
        }
        return () -> release(mutex, key);
    }

    private static void release(InterProcessMutex mutex, String key) {
        try {
            mutex.release();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Curator could not release " + key + ": " + e, e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
