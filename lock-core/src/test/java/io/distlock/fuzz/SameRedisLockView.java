package io.distlock.fuzz;

import java.util.List;

/** The locks live on the checker's own Redis: its scripts read the lock key in the same atomic step as they judge. */
final class SameRedisLockView implements LockView {

    @Override
    public String prelude() {
        return """
                -- The lock key comes last among the keys.
                local holder = redis.call('get', KEYS[#KEYS])
                local ttl = redis.call('pttl', KEYS[#KEYS])
                """;
    }

    @Override
    public List<String> keys(String lockKey) {
        return List.of(lockKey);
    }

    @Override
    public List<String> args(String lockKey) {
        return List.of();
    }
}
