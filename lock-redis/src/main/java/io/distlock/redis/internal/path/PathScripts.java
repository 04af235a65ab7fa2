package io.distlock.redis.internal.path;

import io.distlock.redis.internal.scripts.FenceFunctions;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import java.util.List;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the {@linkplain io.distlock.redis.PathLock path lock}, each built once and run by its SHA; the
 * keys are named in {@link TreePath}.
 *
 * <p>The holder of a path is a string key whose value is its owner token, with the lease as its PTTL, as for the
 * exclusive lock. Each strict ancestor of the path counts the holder in a sorted set of the holders below it: the
 * token, scored by the end of its lease in Redis's time (ms of {@code TIME}, rounded down, plus the lease plus 1; over
 * once {@code TIME} reaches it, so never before the holder's own count ends). A path is free when no ancestor and no
 * path itself has a holder key, and its own set has no live entry. So an acquisition looks at the path's own depth
 * only: O(depth) keys, however many paths the tree holds (each sorted-set step is O(log n) in its size). Entries whose
 * end has passed are removed as acquisitions pass by, and each set expires when its last entry's lease would end, so
 * a holder that dies frees its ancestors within its lease without help.
 *
 * <p>Segments are compared as whole key names by Redis; no script matches text, so no character of a path has any
 * meaning to Lua.
 */
public final class PathScripts {

    /**
     * KEYS: the tree's fencing counter, the tree's waiters mark, the holder key of each node from the root down to the
     * path, then the below key of each of those nodes. ARGV: token, lease ms, the instance id if the caller will wait
     * (else empty), the counter's keep time ({@link FenceFunctions}). Takes the path if no node on its way holds it and nothing below it is held. Returns the new
     * fencing token (&gt; 0) on success; otherwise -1 - the remaining lease of the first conflicting hold found. A
     * caller that will wait marks the tree, so that releases in it are announced to its instance.
     */
    static final RedisScript<Long> ACQUIRE = script(FenceFunctions.LUA + """
            local nodes = (#KEYS - 2) / 2
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local busy = nil
            for i = 1, nodes do
              local ttl = redis.call('pttl', KEYS[2 + i])
              if ttl ~= -2 then
                busy = math.max(ttl, 0)
                break
              end
            end
            if not busy then
              local below = KEYS[2 + 2 * nodes]
              redis.call('zremrangebyscore', below, '-inf', now)
              local last = redis.call('zrevrange', below, 0, 0, 'withscores')
              if last[2] then
                busy = tonumber(last[2]) - now
              end
            end
            if busy then
              if ARGV[3] ~= '' then
                local mark = redis.call('get', KEYS[2])
                local wanted = ARGV[3]
                if mark and mark ~= ARGV[3] then
                  wanted = '*'
                end
                local keep = math.max(redis.call('pttl', KEYS[2]), busy + 1000)
                redis.call('set', KEYS[2], wanted, 'px', keep)
              end
              return -1 - busy
            end
            local lease = tonumber(ARGV[2])
            redis.call('set', KEYS[2 + nodes], ARGV[1], 'px', lease)
            for i = 1, nodes - 1 do
              local below = KEYS[2 + nodes + i]
              redis.call('zremrangebyscore', below, '-inf', now)
              redis.call('zadd', below, now + lease + 1, ARGV[1])
              if redis.call('pttl', below) < lease + 1 then
                redis.call('pexpire', below, lease + 1)
              end
            end
            return nextFence(KEYS[1])
            """);

    /**
     * KEYS: the tree's waiters mark, the path's holder key, then the below key of each strict ancestor. ARGV: token,
     * release channel, releasing instance's id, the tree's hash tag. Deletes the holder key if the token owns it and
     * takes the token out of every ancestor's set (whatever happened to the holder key: the token is this hold's
     * alone). If another instance's waiters marked the tree, publishes the instance id and the tag on the channel.
     * Returns 1 if released, 0 if the key was gone, -1 if another owner holds it.
     */
    private static final String RELEASE_TEXT = """
            local holder = redis.call('get', KEYS[2])
            local result = 0
            if holder == ARGV[1] then
              redis.call('del', KEYS[2])
              result = 1
            elseif holder then
              result = -1
            end
            for i = 3, #KEYS do
              redis.call('zrem', KEYS[i], ARGV[1])
            end
            local mark = redis.call('get', KEYS[1])
            if mark and mark ~= ARGV[3] then
              redis.call('publish', ARGV[2], ARGV[3] .. ARGV[4])
            end
            return result
            """;

    static final RedisScript<Long> RELEASE = script(RELEASE_TEXT);

    /** {@link #RELEASE} announcing with {@code SPUBLISH} on a sharded release channel. */
    static final RedisScript<Long> RELEASE_SHARDED = script(ReleaseChannels.shardedText(RELEASE_TEXT));

    /**
     * KEYS: the path's holder key, then the below key of each strict ancestor. ARGV: token, lease ms. Sets the
     * remaining lease of the holder key and of the hold's entry in every ancestor's set, if the token owns the path.
     * Returns 1, 0 if gone, -1 if another owner holds it.
     */
    static final RedisScript<Long> EXTEND = script("""
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return 0
            end
            if holder ~= ARGV[1] then
              return -1
            end
            local lease = tonumber(ARGV[2])
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            redis.call('pexpire', KEYS[1], lease)
            for i = 2, #KEYS do
              redis.call('zadd', KEYS[i], now + lease + 1, ARGV[1])
              if redis.call('pttl', KEYS[i]) < lease + 1 then
                redis.call('pexpire', KEYS[i], lease + 1)
              end
            end
            return 1
            """);

    /**
     * KEYS: the holder key and ancestors' below keys of each hold in turn, all of one cluster slot. ARGV: lease ms,
     * then for each hold its token and how many below keys follow its holder key. Makes the remaining lease of every
     * hold whose token still owns its path at least the given lease, in the holder key and in each ancestor's set
     * (never shorter: a nested fixed lease may ask for more). Returns one entry per hold: 1 renewed, 0 gone, -1 owned
     * by another.
     */
    static final RedisScript<List<Long>> RENEW = listScript("""
            local lease = tonumber(ARGV[1])
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local result = {}
            local key = 1
            for hold = 1, (#ARGV - 1) / 2 do
              local token = ARGV[2 * hold]
              local ancestors = tonumber(ARGV[2 * hold + 1])
              local holder = redis.call('get', KEYS[key])
              if holder == token then
                if redis.call('pttl', KEYS[key]) < lease then
                  redis.call('pexpire', KEYS[key], lease)
                end
                for i = key + 1, key + ancestors do
                  local ends = tonumber(redis.call('zscore', KEYS[i], token) or '0')
                  if ends < now + lease + 1 then
                    redis.call('zadd', KEYS[i], now + lease + 1, token)
                  end
                  if redis.call('pttl', KEYS[i]) < lease + 1 then
                    redis.call('pexpire', KEYS[i], lease + 1)
                  end
                end
                result[hold] = 1
              elseif holder then
                result[hold] = -1
              else
                result[hold] = 0
              end
              key = key + 1 + ancestors
            end
            return result
            """);

    private PathScripts() {}

    private static RedisScript<Long> script(String text) {
        return new DefaultRedisScript<>(text, Long.class);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static RedisScript<List<Long>> listScript(String text) {
        return new DefaultRedisScript(text, List.class);
    }
}
