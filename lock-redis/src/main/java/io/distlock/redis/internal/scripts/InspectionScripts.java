package io.distlock.redis.internal.scripts;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The read-only script behind {@link io.distlock.redis.LockInspection}: how a key stands, without taking or touching
 * it.
 */
public final class InspectionScripts {

    /**
     * KEYS: lock. Returns -2 if the key holds no lock: absent, or reserved for a moment for other instances' waiters
     * ({@code ~<instance id>}, see {@link LockScripts#RELEASE}); -1 if it has no expiry; otherwise its PTTL in ms. A
     * hash (readers) counts as held.
     */
    public static final RedisScript<Long> KEY_STATE = new DefaultRedisScript<>("""
            local kind = redis.call('type', KEYS[1]).ok
            if kind == 'none' then
              return -2
            end
            if kind == 'string' and string.sub(redis.call('get', KEYS[1]), 1, 1) == '~' then
              return -2
            end
            return redis.call('pttl', KEYS[1])
            """, Long.class);

    private InspectionScripts() {}
}
