package io.distlock.bench.contender;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The lock the seed articles teach: {@code SET key token NX PX lease}, retried after a 50 ms sleep until the wait ends,
 * and a Lua compare-and-delete to release. It stands for the hand-written locks distlock replaces.
 */
final class SeedSpinLock {

    private static final long RETRY_SLEEP_MILLIS = 50;

    private static final RedisScript<Long> COMPARE_AND_DELETE = new DefaultRedisScript<>(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
            Long.class);

    private final StringRedisTemplate redis;

    SeedSpinLock(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** Returns the token that owns the key, or null if the key stayed taken for the whole wait. */
    @Nullable
    String tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        String token = UUID.randomUUID().toString();
        long deadline = System.nanoTime() + wait.toNanos();
        while (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key, token, lease))) {
            if (System.nanoTime() - deadline >= 0) {
                return null;
            }
            TimeUnit.MILLISECONDS.sleep(RETRY_SLEEP_MILLIS);
        }
        return token;
    }

    /** Deletes the key if {@code token} still owns it; false if the lease had run out. */
    boolean release(String key, String token) {
        return Long.valueOf(1).equals(redis.execute(COMPARE_AND_DELETE, List.of(key), token));
    }
}
