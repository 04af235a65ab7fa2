package io.distlock.redis.internal.engine;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.redis.internal.waiting.WaitingRoom;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Takes locks for {@link io.distlock.redis.RedisLock#tryAcquireAsync} without blocking a thread: one {@link AsyncAcquisition} per call,
 * waiting in the same {@link WaitingRoom} as the blocking {@link Acquirer}, with what the acquisitions share.
 */
public final class AsyncAcquirer {

    private final LockKit kit;
    private final LockCommands commands;
    private final WaitingRoom waitingRoom;
    private final Releaser releaser;
    private final AsyncThreads threads;

    public AsyncAcquirer(
            LockKit kit, LockCommands commands, WaitingRoom waitingRoom, Releaser releaser, AsyncThreads threads) {
        this.kit = kit;
        this.commands = commands;
        this.waitingRoom = waitingRoom;
        this.releaser = releaser;
        this.threads = threads;
    }

    /**
     * Starts an acquisition that waits up to {@code waitNanos} ({@link WaitingRoom#FOREVER}: no limit; zero: one
     * attempt).
     */
    public CompletableFuture<Optional<LockHandle>> acquire(String key, String lockKey, Lease lease, long waitNanos) {
        if (commands.isConnected()) {
            startBackgroundWork();
        }
        return new AsyncAcquisition(this, key, lockKey, lease, waitNanos).start();
    }

    void startBackgroundWork() {
        kit.startBackgroundWork();
    }

    /** See {@link LockKit#waitsFor}. */
    void waitsFor(String lockKey) {
        kit.waitsFor(lockKey, false);
    }

    Holds holds() {
        return kit.holds();
    }

    LockCommands commands() {
        return commands;
    }

    WaitingRoom waitingRoom() {
        return waitingRoom;
    }

    Releaser releaser() {
        return releaser;
    }

    AsyncThreads threads() {
        return threads;
    }

    ObserverCalls observer() {
        return kit.observer();
    }

    IllegalStateException closed(String key) {
        return kit.closed(key);
    }
}
