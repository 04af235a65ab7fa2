package io.distlock.bench.contender;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * Curator's {@link InterProcessSemaphoreV2} on the run's ZooKeeper, through one Curator client per worker configured
 * like {@link CuratorMutexContender}'s: one semaphore per key and worker, shared by its threads, of a fixed count of
 * leases. Its leases are ephemeral nodes that live as long as the holder's session, so the benchmark's lease is not
 * passed on.
 */
final class CuratorSemaphoreContender implements Contender {

    private static final String BASE_PATH = "/bench-curator-semaphore";

    private final CuratorFramework client;
    private final int permits;
    private final ConcurrentMap<String, InterProcessSemaphoreV2> semaphores = new ConcurrentHashMap<>();

    CuratorSemaphoreContender(BackendEndpoint ensemble, int permits) {
        this.client = CuratorMutexContender.connect(ensemble);
        this.permits = permits;
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        InterProcessSemaphoreV2 semaphore = semaphores.computeIfAbsent(
                key, any -> new InterProcessSemaphoreV2(client, ZKPaths.makePath(BASE_PATH, key), permits));
        Lease granted;
        try {
            granted = semaphore.acquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Curator could not take a lease of " + key + ": " + e, e);
        }
        return granted == null ? null : () -> semaphore.returnLease(granted);
    }

    @Override
    public void close() {
        client.close();
    }
}
