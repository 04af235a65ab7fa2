package io.distlock.redis.internal.scripts;

import java.util.List;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The read-only script behind {@link io.distlock.redis.LockInspection}: how a key stands, without taking or touching
 * it.
 */
public final class InspectionScripts {

    /**
     * KEYS: lock. Returns {@code {-2}} if the key holds no lock: absent, or reserved for a moment for other instances'
     * waiters ({@code ~<instance id>}, see {@link LockScripts#RELEASE}). Otherwise {@code {pttl, since, holder, now}}:
     * its PTTL in ms (-1 if it has no expiry), when the holder took it and the holder's instance name as the
     * acquisition wrote them ({@link HolderFunctions.LUA}; both empty where the value names no holder, as for
     * readers, whose hash counts as held), and Redis's time in ms. The owner token never leaves the server.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static final RedisScript<List<Object>> KEY_STATE =
            new DefaultRedisScript(HolderFunctions.LUA + """
            local kind = redis.call('type', KEYS[1]).ok
            if kind == 'none' then
              return {-2}
            end
            local since, name = '', ''
            if kind == 'string' then
              local value = redis.call('get', KEYS[1])
              if string.sub(value, 1, 1) == '~' then
                return {-2}
              end
              local owner = splitMark(value)
              local at = string.find(owner, '#', 1, true)
              if at then
                since = string.sub(owner, at + 1, at + 13)
                name = string.sub(owner, at + 15)
              end
            end
            local clock = redis.call('time')
            local now = clock[1] .. string.format('%03d', math.floor(tonumber(clock[2]) / 1000))
            return {redis.call('pttl', KEYS[1]), since, name, now}
            """, List.class);

    private InspectionScripts() {}
}
