package io.distlock.redis.internal.scripts;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua script of the {@linkplain io.distlock.redis.ReadLock read lock}: a reader takes its share of a lock key,
 * which is a hash while readers hold it ({@link LockScripts} describes both forms of the key). A reader's hold is then
 * checked, extended, renewed and released by {@link LockScripts}' scripts, which tell a reader's hold from a writer's
 * by the key's type.
 */
public final class ReadScripts {

    /**
     * KEYS: lock, fencing counter. ARGV: token, lease ms, the instance id if the caller will wait (else empty), {@code
     * 1} if a waiting writer keeps this reader out (else {@code 0}), the counter's keep time ({@link FenceFunctions}). Adds a reader to the key unless a writer holds it
     * (a string value; a waiting reader marks it as {@link LockScripts#ACQUIRE} does, so that the writer's release is
     * announced) or, with writer preference, a writer waits ({@code ~w}). Returns the new fencing token (&gt; 0) on
     * success; otherwise -1 - the writer's PTTL, or -1 - the time until the waiting writer's mark ends.
     */
    public static final RedisScript<Long> ACQUIRE = script(HolderFunctions.LUA + FenceFunctions.LUA + """
            local kind = redis.call('type', KEYS[1]).ok
            if kind == 'string' then
              local holder = redis.call('get', KEYS[1])
              if ARGV[3] ~= '' and string.sub(holder, 1, 1) ~= '~' then
                local owner, mark = splitMark(holder)
                local wanted = mark
                if mark == '' then
                  wanted = '+' .. ARGV[3]
                elseif mark ~= '+' .. ARGV[3] then
                  wanted = '*'
                end
                if wanted ~= mark then
                  redis.call('set', KEYS[1], owner .. wanted, 'xx', 'keepttl')
                end
              end
              return -1 - redis.call('pttl', KEYS[1])
            end
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            if kind == 'hash' and ARGV[4] == '1' then
              local writer = tonumber(redis.call('hget', KEYS[1], '~w') or '0')
              if writer > now then
                return -1 - (writer - now)
              end
            end
            redis.call('hset', KEYS[1], ARGV[1], now + tonumber(ARGV[2]) + 1)
            if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
              redis.call('pexpire', KEYS[1], ARGV[2])
            end
            return nextFence(KEYS[2])
            """);

    private ReadScripts() {}

    private static RedisScript<Long> script(String text) {
        return new DefaultRedisScript<>(text, Long.class);
    }
}
