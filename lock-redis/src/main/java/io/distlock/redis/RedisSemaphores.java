package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.Semaphores;
import io.distlock.internal.engine.LockArguments;
import io.distlock.redis.internal.engine.LockKit;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.waiting.ReleaseSignals;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** The semaphores of a {@link RedisLock} of one Redis: one {@link SemaphoreLock} per permit count, made when asked. */
final class RedisSemaphores implements Semaphores {

    private final LockKit kit;
    private final SingleNodeCommands commands;
    private final ReleaseSignals releases;
    private final ConcurrentMap<Integer, SemaphoreLock> byPermits = new ConcurrentHashMap<>();

    RedisSemaphores(LockKit kit, SingleNodeCommands commands, ReleaseSignals releases) {
        this.kit = kit;
        this.commands = commands;
        this.releases = releases;
    }

    @Override
    public Lock permits(int permits) {
        LockArguments.validatePermits(permits);
        return byPermits.computeIfAbsent(permits, count -> new SemaphoreLock(kit, commands, releases, count));
    }
}
