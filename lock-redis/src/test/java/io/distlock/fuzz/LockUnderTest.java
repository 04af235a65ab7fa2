package io.distlock.fuzz;

import io.distlock.Lock;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import java.util.List;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lock a fuzz worker drives, behind the {@link Lock} interface, and where it keeps each lock in Redis. The checker
 * reads that key only to learn the holder's remaining lease (see {@link SectionChecker}). A lock in another store comes
 * with the view the checker reads it through, and is kept under its handles' keys.
 */
final class LockUnderTest implements AutoCloseable {

    private final Lock lock;
    private final Lock reader;
    private final String prefix;
    private final String readerPrefix;
    private final boolean pathLock;
    private final Runnable closer;
    private final LockView storeView;

    private LockUnderTest(
            Lock lock,
            Lock reader,
            String prefix,
            String readerPrefix,
            boolean pathLock,
            Runnable closer,
            LockView storeView) {
        this.lock = lock;
        this.reader = reader;
        this.prefix = prefix;
        this.readerPrefix = readerPrefix;
        this.pathLock = pathLock;
        this.closer = closer;
        this.storeView = storeView;
    }

    private LockUnderTest(
            Lock lock, Lock reader, String prefix, String readerPrefix, boolean pathLock, Runnable closer) {
        this(lock, reader, prefix, readerPrefix, pathLock, closer, null);
    }

    private LockUnderTest(Lock lock, Lock reader, String prefix, String readerPrefix, Runnable closer) {
        this(lock, reader, prefix, readerPrefix, false, closer);
    }

    private LockUnderTest(Lock lock, String prefix, Runnable closer) {
        this(lock, null, prefix, prefix, closer);
    }

    /**
     * Opens the lock of the given kind on {@code factories}, one per Redlock node or a single one otherwise, with every
     * key under {@code prefix}; RedisLock waits for as many replica acknowledgements per grant as {@code options} asks.
     */
    static LockUnderTest open(
            LockKind kind, List<LettuceConnectionFactory> factories, String prefix, LockOptions options) {
        if (kind == LockKind.REDLOCK) {
            Redlock redlock = Redlock.builder(factories)
                    .keyPrefix(prefix)
                    .watchdogLease(LeaseProfile.WATCHDOG_LEASE)
                    .build();
            return new LockUnderTest(redlock, prefix, redlock::close);
        }
        LettuceConnectionFactory factory = factories.get(0);
        if (kind == LockKind.DISTLOCK
                || kind == LockKind.FAIR
                || kind == LockKind.ONE_NODE_OF_REDLOCK
                || kind == LockKind.PATH_EXACT_ONLY) {
            RedisLock redisLock = redisLock(factory, prefix, options);
            return new LockUnderTest(kind == LockKind.FAIR ? redisLock.fair() : redisLock, prefix, redisLock::close);
        }
        if (kind == LockKind.PATH) {
            RedisLock redisLock = redisLock(factory, prefix, options);
            return new LockUnderTest(redisLock.tree(PathTree.NAME), null, prefix, prefix, true, redisLock::close);
        }
        if (kind == LockKind.READ_WRITE) {
            RedisLock writer = redisLock(factory, prefix, options);
            return new LockUnderTest(writer, writer.reading(), prefix, prefix, writer::close);
        }
        if (kind == LockKind.READERS_APART_FROM_WRITERS) {
            String apart = prefix + "readers-apart:";
            RedisLock writer = redisLock(factory, prefix, options);
            RedisLock readers = redisLock(factory, apart, options);
            return new LockUnderTest(writer, readers.reading(), prefix, apart, () -> {
                readers.close();
                writer.close();
            });
        }
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        redis.afterPropertiesSet();
        return new LockUnderTest(new NaiveLock(redis, prefix, kind), prefix, () -> {});
    }

    /** A lock in a store other than Redis, which the checker reads through {@code view}; {@code closer} closes both. */
    static LockUnderTest inStore(Lock lock, LockView view, Runnable closer) {
        return new LockUnderTest(lock, null, "", "", false, closer, view);
    }

    private static RedisLock redisLock(LettuceConnectionFactory factory, String prefix, LockOptions options) {
        return RedisLock.builder(factory)
                .keyPrefix(prefix)
                .watchdogLease(LeaseProfile.WATCHDOG_LEASE)
                .replicaAcknowledgements(options.replicaAcks(), LockOptions.REPLICA_ACK_TIMEOUT)
                .build();
    }

    /**
     * RedisLock documents its lock key as {@code {prefix + key}}, and Redlock uses it on every node; the naive locks
     * use the same layout.
     */
    static String redisKey(String prefix, String key) {
        return "{" + prefix + key + "}";
    }

    Lock lock() {
        return lock;
    }

    /** The lock of a reader if {@code reading}, of a writer (or exclusive holder) otherwise. */
    Lock lock(boolean reading) {
        if (!reading) {
            return lock;
        }
        if (reader == null) {
            throw new IllegalStateException(lock + " has no readers in this run");
        }
        return reader;
    }

    /** Where the lock of {@code key} is kept: its Redis key, or for a lock in another store the key itself. */
    String redisKey(String key) {
        return storeView != null ? key : redisKey(prefix, key);
    }

    /**
     * Where a reader's lock of {@code key} is kept if {@code reading}, a writer's otherwise; for a path lock, the holder
     * of exactly the path (see {@link #pathHolderKey}).
     */
    String redisKey(String key, boolean reading) {
        if (storeView != null) {
            return key;
        }
        if (pathLock) {
            return pathHolderKey(prefix, key);
        }
        return redisKey(reading ? readerPrefix : prefix, key);
    }

    /**
     * In the path lock's Redis layout, the holder of exactly path {@code A/C} of tree {@code T} is the string key
     * <code>{prefix + T}/A/C/h</code> (the root's <code>{prefix + T}//h</code>), its value the owner token, its PTTL
     * the lease. The checker reads it for nothing more, as it reads a key's lock; should the layout change, sections
     * would find their lock gone and the run fail with early takeovers.
     *
     * @param key a path, or a handle's key for it
     */
    private static String pathHolderKey(String prefix, String key) {
        return "{" + prefix + PathTree.NAME + "}/" + PathKeys.pathOf(key) + "/h";
    }

    /** The view of the store that holds a lock {@linkplain #inStore in a store}. */
    LockView storeView() {
        if (storeView == null) {
            throw new IllegalStateException(lock + " is on Redis, read through a view of the worker's");
        }
        return storeView;
    }

    @Override
    public void close() {
        closer.run();
    }
}
