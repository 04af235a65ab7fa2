package io.distlock.redis.internal.engine;

import io.distlock.LockHandle;
import io.distlock.redis.internal.waiting.WaitingRoom;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Takes locks for {@link io.distlock.redis.RedisLock#tryAcquireAsync} without blocking a thread: one {@link
 * AsyncAcquisition} per call, waiting in the same {@link WaitingRoom} as the blocking {@link Acquirer}, with what the
 * acquisitions share.
 */
public final class AsyncAcquirer {

    private final AsyncParts parts;

    public AsyncAcquirer(
            LockKit kit, LockCommands commands, WaitingRoom waitingRoom, Releaser releaser, AsyncThreads threads) {
        this.parts = new AsyncParts(kit, commands, waitingRoom, releaser, threads);
    }

    /**
     * Starts an acquisition that waits up to {@code waitNanos} ({@link Waits#FOREVER}: no limit; zero: one
     * attempt).
     */
    public CompletableFuture<Optional<LockHandle>> acquire(
            String key, String lockKey, LeaseAsked lease, long waitNanos) {
        if (parts.commands().isConnected()) {
            parts.startBackgroundWork();
        }
        return new AsyncAcquisition(parts, key, lockKey, lease, waitNanos).start();
    }
}
