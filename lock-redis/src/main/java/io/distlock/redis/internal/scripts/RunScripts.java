package io.distlock.redis.internal.scripts;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The script of a run of local handovers ({@link io.distlock.redis.RedisLockBuilder#localHandoverWindow}): the holds of
 * one instance that took a key in turn under the owner token Redis granted, without a round trip between them.
 */
public final class RunScripts {

    /**
     * KEYS: lock. ARGV: the run's owner token, lease ms, the run's instance id. Confirms that the token still owns the
     * key, so that it owned it without a break since its grant, and makes the key's remaining lease at least the given
     * one. Returns 2 if the token owns the key and waiters of another instance marked it, 1 if the token owns it, 0 if
     * the key is gone, -1 if another owner holds it.
     */
    public static final RedisScript<Long> CONFIRM = new DefaultRedisScript<>(HolderFunctions.LUA + """
            if redis.call('type', KEYS[1]).ok == 'hash' then
              return -1
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return 0
            end
            if string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return -1
            end
            if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
              redis.call('pexpire', KEYS[1], ARGV[2])
            end
            local _, mark = splitMark(holder)
            if mark ~= '' and mark ~= '+' .. ARGV[3] then
              return 2
            end
            return 1
            """, Long.class);

    private RunScripts() {}
}
