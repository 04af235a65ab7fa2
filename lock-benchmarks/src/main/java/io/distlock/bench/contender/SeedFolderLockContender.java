package io.distlock.bench.contender;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The seed article's {@link SeedFolderLock} on a {@link StringRedisTemplate}, with a tree as the article's project: its
 * locks are the fields of one hash, and a path's key is the tree's name, {@code /} and the path, as in the article's
 * {@code project/A/C}.
 *
 * <p>The article's lock tries once and never waits; the benchmark gives it paths that nobody holds.
 */
final class SeedFolderLockContender implements Contender {

    /** No Lua pattern characters, like the tree names and paths the benchmark uses, since the script matches patterns. */
    static final String PREFIX = "bench_seed_folder:";

    static final String LOCKED_HASH = PREFIX + "lockedHashKey:";

    private final LettuceConnectionFactory connectionFactory;
    private final SeedFolderLock lock;

    SeedFolderLockContender(RedisNodes redis) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.lock = new SeedFolderLock(new StringRedisTemplate(connectionFactory));
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) {
        TreePath target = TreePath.of(key);
        String lockedKeys = LOCKED_HASH + target.tree();
        String lockKey = PREFIX + key;
        String token = UUID.randomUUID().toString();
        if (!lock.getFileLock(lockedKeys, lockKey, token, lease)) {
            return null;
        }
        return () -> {
            if (!lock.releaseFileLock(lockedKeys, lockKey, token)) {
                throw new IllegalStateException("seed folder lock '" + lockKey + "' was no longer held at release");
            }
        };
    }

    @Override
    public void hold(List<String> keys, Duration lease) {
        String owner = UUID.randomUUID().toString();
        keys.stream()
                .collect(Collectors.groupingBy(key -> TreePath.of(key).tree()))
                .forEach((tree, inTree) -> lock.holdWithoutScan(
                        LOCKED_HASH + tree,
                        inTree.stream().map(key -> PREFIX + key).toList(),
                        owner,
                        lease));
    }

    @Override
    public void close() {
        LettuceFactories.destroy(connectionFactory);
    }
}
