package io.distlock.bench.contender;

import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.monitor.LockObserver;
import io.distlock.redis.RedisLock;
import java.time.Duration;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link RedisLock} (or its {@linkplain RedisLock#fair() fair lock}) with default settings and fixed leases,
 * the way the peers are given theirs; as a read-write contender, reads go through {@link RedisLock#reading()} and
 * writes through the exclusive lock, which is the writer; as the semaphore contender, every acquisition takes one of
 * the key's permits ({@code Kind.SEMAPHORE}). As the observed contender, it tells Micrometer what it does.
 */
final class DistlockContender implements Contender {

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLock redisLock;
    private final Lock lock;
    private final Lock readLock;

    DistlockContender(RedisNodes redis, boolean fair, boolean readWrite) {
        this(redis, fair ? RedisLock::fair : lock -> lock, readWrite, LockObserver.NONE, true);
    }

    /** The plain lock, telling an observer what it does, to measure what observing costs. */
    DistlockContender(RedisNodes redis, LockObserver observer) {
        this(redis, lock -> lock, false, observer, true);
    }

    /** The plain lock announcing releases with classic pub/sub on a Redis Cluster too. */
    static DistlockContender classicPubSub(RedisNodes redis) {
        return new DistlockContender(redis, lock -> lock, false, LockObserver.NONE, false);
    }

    /** The plain lock with local handover ({@code localHandoverWindow}) for the hot keys of the contended scenarios. */
    static DistlockContender localHandover(RedisNodes redis) {
        return new DistlockContender(
                redis, lock -> lock, false, LockObserver.NONE, true, ContenderKind.LOCAL_HANDOVER_WINDOW);
    }

    /** The semaphore of {@code permits} permits a key, whose every acquisition takes a permit. */
    static DistlockContender semaphore(RedisNodes redis, int permits) {
        return new DistlockContender(
                redis, lock -> Kind.SEMAPHORE.of(lock).permits(permits), false, LockObserver.NONE, true);
    }

    private DistlockContender(
            RedisNodes redis,
            Function<RedisLock, Lock> taking,
            boolean readWrite,
            LockObserver observer,
            boolean shardedPubSub) {
        this(redis, taking, readWrite, observer, shardedPubSub, null);
    }

    private DistlockContender(
            RedisNodes redis,
            Function<RedisLock, Lock> taking,
            boolean readWrite,
            LockObserver observer,
            boolean shardedPubSub,
            @Nullable Duration localHandoverWindow) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.redisLock = RedisLock.builder(connectionFactory)
                .observer(observer)
                .shardedPubSub(shardedPubSub)
                .localHandoverWindow(localHandoverWindow)
                .build();
        this.lock = taking.apply(redisLock);
        this.readLock = readWrite ? redisLock.reading() : lock;
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        return LockCalls.tryAcquire(lock, key, lease, wait);
    }

    @Override
    public @Nullable Release tryAcquireRead(String key, Duration lease, Duration wait) throws InterruptedException {
        return LockCalls.tryAcquire(readLock, key, lease, wait);
    }

    @Override
    public void close() {
        redisLock.close();
        LettuceFactories.destroy(connectionFactory);
    }
}
