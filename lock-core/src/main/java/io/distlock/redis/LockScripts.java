package io.distlock.redis;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts behind every lock operation, each built once and run by its SHA.
 *
 * <p>A lock is a string key holding the owner token, with the lease as its PTTL. A waiter that fails to acquire appends
 * {@value #WAITING_MARK} to the holder's value, so a release publishes only when someone is waiting. Every script
 * compares the owner token before acting, so a holder whose lease ran out can never touch the next owner's key.
 */
final class LockScripts {

    /** Appended to the holder's token by a failed acquisition that is going to wait; never part of a token. */
    static final String WAITING_MARK = "+";

    /**
     * KEYS: lock, fencing counter. ARGV: token, lease ms, "1" if the caller will wait. Returns the new fencing token
     * (&gt; 0) on success; otherwise -1 - the holder's PTTL (so a holder without expiry gives 0).
     */
    static final RedisScript<Long> ACQUIRE = script("""
            if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
              return redis.call('incr', KEYS[2])
            end
            if ARGV[3] == '1' then
              local holder = redis.call('get', KEYS[1])
              if holder and string.sub(holder, -1) ~= '+' then
                redis.call('set', KEYS[1], holder .. '+', 'xx', 'keepttl')
              end
            end
            return -1 - redis.call('pttl', KEYS[1])
            """);

    /**
     * KEYS: lock. ARGV: token, release channel. Deletes the key if the token owns it and publishes the key on the
     * channel if someone waits. Returns 1 if released, 0 if the key was gone, -1 if another owner holds it.
     */
    static final RedisScript<Long> RELEASE = script("""
            local holder = redis.call('get', KEYS[1])
            if holder == ARGV[1] then
              redis.call('del', KEYS[1])
              return 1
            end
            if holder == ARGV[1] .. '+' then
              redis.call('del', KEYS[1])
              redis.call('publish', ARGV[2], KEYS[1])
              return 1
            end
            if holder then
              return -1
            end
            return 0
            """);

    /**
     * KEYS: lock. ARGV: token, lease ms. Sets the remaining lease if the token owns the key. Returns 1, 0 if gone, -1
     * if another owner holds it.
     */
    static final RedisScript<Long> EXTEND = script("""
            local holder = redis.call('get', KEYS[1])
            if holder == ARGV[1] or holder == ARGV[1] .. '+' then
              redis.call('pexpire', KEYS[1], ARGV[2])
              return 1
            end
            if holder then
              return -1
            end
            return 0
            """);

    /**
     * KEYS: lock. ARGV: token, lease ms. For a nested acquisition: confirms the token still owns the key and makes its
     * remaining lease at least the given one. Returns 1, 0 if gone, -1 if another owner holds it.
     */
    static final RedisScript<Long> CONFIRM = script("""
            local holder = redis.call('get', KEYS[1])
            if holder == ARGV[1] or holder == ARGV[1] .. '+' then
              if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
                redis.call('pexpire', KEYS[1], ARGV[2])
              end
              return 1
            end
            if holder then
              return -1
            end
            return 0
            """);

    /**
     * KEYS: lock. ARGV: token. Returns the key's PTTL (at least 0) if the token owns it, -1 if another owner holds it,
     * -2 if the key is gone.
     */
    static final RedisScript<Long> STATUS = script("""
            local holder = redis.call('get', KEYS[1])
            if holder == ARGV[1] or holder == ARGV[1] .. '+' then
              local ttl = redis.call('pttl', KEYS[1])
              if ttl < 0 then
                return 0
              end
              return ttl
            end
            if holder then
              return -1
            end
            return -2
            """);

    /**
     * KEYS: locks of one cluster slot. ARGV: lease ms, then one token per key. Extends each key its token still owns.
     * Returns one entry per key: 1 renewed, 0 gone, -1 owned by another.
     */
    static final RedisScript<java.util.List<Long>> RENEW = listScript("""
            local result = {}
            for i, key in ipairs(KEYS) do
              local token = ARGV[i + 1]
              local holder = redis.call('get', key)
              if holder == token or holder == token .. '+' then
                redis.call('pexpire', key, ARGV[1])
                result[i] = 1
              elseif holder then
                result[i] = -1
              else
                result[i] = 0
              end
            end
            return result
            """);

    private LockScripts() {}

    private static RedisScript<Long> script(String text) {
        return new DefaultRedisScript<>(text, Long.class);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static RedisScript<java.util.List<Long>> listScript(String text) {
        return new DefaultRedisScript(text, java.util.List.class);
    }
}
