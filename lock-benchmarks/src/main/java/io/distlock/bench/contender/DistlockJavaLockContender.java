package io.distlock.bench.contender;

import io.distlock.Lease;
import io.distlock.redis.RedisLock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link RedisLock} through its {@code java.util.concurrent.locks.Lock} view ({@code asJavaLock}), the API
 * that people migrating from Spring Integration's {@code obtain(key)} or Redisson's {@code RLock} use, held in one of
 * the ways their code holds such locks ({@link Views}).
 */
final class DistlockJavaLockContender implements Contender {

    /** How the callers hold their views. */
    enum Views {
        /**
         * One view per key, shared by every thread, as Spring Integration's registry keeps its locks; locked with
         * {@code tryLock(wait)}.
         */
        SHARED,
        /** One view per key and thread, as code that keeps its lock in a field of a per-thread worker; {@code lock()}. */
        PER_THREAD,
        /** A new view for every acquisition, as Redisson's users write {@code getLock(name).lock()}. */
        PER_CALL,
        /** One view per key and thread, as {@link #PER_THREAD}, locked with {@code lockInterruptibly()}. */
        PER_THREAD_INTERRUPTIBLY
    }

    private final LettuceConnectionFactory connectionFactory;
    private final RedisLock redisLock;
    private final Views views;
    private final Map<String, Lock> shared = new ConcurrentHashMap<>();
    private final ThreadLocal<Map<String, Lock>> perThread = ThreadLocal.withInitial(HashMap::new);

    DistlockJavaLockContender(RedisNodes redis, Views views) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.redisLock = RedisLock.builder(connectionFactory).build();
        this.views = views;
    }

    // lock() and lockInterruptibly() wait as long as it takes: the workload's wait bounds only the tryLock(wait) of the
    // shared views.
    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        Lease fixed = Lease.fixed(lease);
        switch (views) {
            case SHARED -> {
                Lock view = shared.computeIfAbsent(key, k -> redisLock.asJavaLock(k, fixed));
                return view.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS) ? view::unlock : null;
            }
            case PER_THREAD -> {
                Lock view = perThread.get().computeIfAbsent(key, k -> redisLock.asJavaLock(k, fixed));
                view.lock();
                return view::unlock;
            }
            case PER_THREAD_INTERRUPTIBLY -> {
                Lock view = perThread.get().computeIfAbsent(key, k -> redisLock.asJavaLock(k, fixed));
                view.lockInterruptibly();
                return view::unlock;
            }
            default -> {
                Lock view = redisLock.asJavaLock(key, fixed);
                view.lock();
                return view::unlock;
            }
        }
    }

    @Override
    public void close() {
        redisLock.close();
        LettuceFactories.destroy(connectionFactory);
    }
}
