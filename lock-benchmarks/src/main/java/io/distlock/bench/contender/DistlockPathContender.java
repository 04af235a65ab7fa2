package io.distlock.bench.contender;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.redis.PathLock;
import io.distlock.redis.RedisLock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link PathLock}, from {@link RedisLock#tree(String)} with default settings, and fixed leases, the way
 * distlock's other contenders take theirs.
 */
final class DistlockPathContender implements Contender {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLock redisLock;
    private final Map<String, PathLock> trees = new ConcurrentHashMap<>();

    /** Kept reachable: distlock stops counting a handle that the garbage collector finds dropped, with a warning. */
    private final List<LockHandle> held = new CopyOnWriteArrayList<>();

    DistlockPathContender(RedisNodes redis) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.redisLock = RedisLock.builder(connectionFactory).build();
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        TreePath target = TreePath.of(key);
        return LockCalls.tryAcquire(tree(target), target.path(), lease, wait);
    }

    @Override
    public void hold(List<String> keys, Duration lease) {
        for (String key : keys) {
            TreePath target = TreePath.of(key);
            held.add(tree(target)
                    .tryAcquire(target.path(), Lease.fixed(lease))
                    .orElseThrow(() -> new IllegalStateException("could not hold '" + key + "': it is taken")));
        }
    }

    private PathLock tree(TreePath target) {
        return trees.computeIfAbsent(target.tree(), redisLock::tree);
    }

    /** Releases the held locks first: closing distlock with locks still held waits out its shutdown grace period. */
    @Override
    public void close() {
        held.forEach(LockHandle::release);
        redisLock.close();
        LettuceFactories.destroy(connectionFactory);
    }
}
