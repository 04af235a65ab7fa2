package io.distlock.redis.internal.semaphore;

import io.distlock.redis.internal.scripts.FenceFunctions;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua script that takes one of a semaphore key's permits. The permits key, {@code {prefix+key}:permits}, shares the
 * lock key's hash tag and is apart from it: a hash of each permit holder's owner token mapped to the end of its lease in
 * Redis's time (ms), as a read lock's readers are ({@link io.distlock.redis.internal.scripts.LockScripts} describes the
 * form), so that the hold scripts check, extend, renew and release a permit as they do a reader's share. Fields that
 * start with {@code ~} hold no permit: {@code ~p<instance id>} marks that a waiter of that instance waits, until the
 * time it holds, so that a release by another instance announces itself.
 */
public final class SemaphoreScripts {

    /** What the permits key's name adds to the lock key's. */
    public static final String PERMITS_SUFFIX = ":permits";

    /**
     * KEYS: permits key, fencing counter. ARGV: token, lease ms, the instance id if the caller will wait (else empty),
     * the permit count, the counter's keep time ({@link FenceFunctions}). Drops the fields whose time has passed, then
     * grants a permit if fewer than the count are live. Returns the new fencing token (&gt; 0) on success; otherwise -1
     * minus the time until the first live permit's lease ends, after marking the waiting instance. It reads every field
     * of the key: O(permits live, plus those whose lease ran out since the key was last touched).
     */
    public static final RedisScript<Long> ACQUIRE = script(FenceFunctions.LUA + """
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local fields = redis.call('hgetall', KEYS[1])
            local live = 0
            local first = nil
            for i = 1, #fields, 2 do
              local ends = tonumber(fields[i + 1])
              if ends <= now then
                redis.call('hdel', KEYS[1], fields[i])
              elseif string.sub(fields[i], 1, 1) ~= '~' then
                live = live + 1
                if not first or ends < first then
                  first = ends
                end
              end
            end
            if live < tonumber(ARGV[4]) then
              redis.call('hset', KEYS[1], ARGV[1], now + tonumber(ARGV[2]) + 1)
              if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
                redis.call('pexpire', KEYS[1], ARGV[2])
              end
              return nextFence(KEYS[2])
            end
            if ARGV[3] ~= '' then
              redis.call('hset', KEYS[1], '~p' .. ARGV[3], first)
            end
            return -1 - (first - now)
            """);

    private SemaphoreScripts() {}

    private static RedisScript<Long> script(String text) {
        return new DefaultRedisScript<>(text, Long.class);
    }
}
