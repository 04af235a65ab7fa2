package io.distlock.redis.internal.scripts;

import java.util.List;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/** The script that takes several keys of one cluster slot at once, all or none. */
public final class KeysTogetherScripts {

    /**
     * KEYS: the lock and fencing counter of each key, in pairs, all of one cluster slot. ARGV: lease ms, the caller's
     * instance id, its instance name, one token per key, then the counters' keep time ({@link FenceFunctions}). Takes every key or none: only if each is free or
     * reserved by another instance for its waiters' turn, as {@link LockScripts#ACQUIRE} would take it. Returns {@code
     * {0, fencing token of each key...}} when taken, else {@code {n}}, the position (from 1) of the first key held.
     * Marks nothing: the caller does not wait here.
     */
    public static final RedisScript<List<Long>> ACQUIRE_ALL =
            listScript(HolderFunctions.LUA + FenceFunctions.LUA + """
            local locks = #KEYS / 2
            for n = 1, locks do
              local lock = KEYS[2 * n - 1]
              local kind = redis.call('type', lock).ok
              if kind == 'string' then
                local holder = redis.call('get', lock)
                if string.sub(holder, 1, 1) ~= '~' or string.sub(holder, 2) == ARGV[2] then
                  return {n}
                end
              elseif kind ~= 'none' then
                return {n}
              end
            end
            local answer = {0}
            local held = heldBy(ARGV[3])
            for n = 1, locks do
              redis.call('set', KEYS[2 * n - 1], ARGV[3 + n] .. held, 'px', ARGV[1])
              answer[n + 1] = nextFence(KEYS[2 * n])
            end
            return answer
            """);

    private KeysTogetherScripts() {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static RedisScript<List<Long>> listScript(String text) {
        return new DefaultRedisScript(text, List.class);
    }
}
