package io.distlock.redis.internal.scripts;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The script behind {@link io.distlock.monitor.InspectableLock#releaseForOperator}: an operator's way out of a stuck
 * key.
 */
public final class OperatorScripts {

    /**
     * KEYS: lock, fencing counter. ARGV: fencing token, release channel, the announcement's sender ({@link
     * ReleaseIds#OPERATOR}). For an operator: deletes the key if a single owner holds it under that fencing token (the
     * counter's value, which only the key's latest grant set) and announces the release as {@code <sender><fencing
     * token>|<lock key>}, so that the holder's instance learns its hold is lost and every waiter looks again. Returns
     * 1 if deleted, 0 otherwise: the key free, reserved, held by readers or under another token.
     */
    private static final String OPERATOR_RELEASE_TEXT = """
            if redis.call('type', KEYS[1]).ok ~= 'string' then
              return 0
            end
            if string.sub(redis.call('get', KEYS[1]), 1, 1) == '~' then
              return 0
            end
            if redis.call('get', KEYS[2]) ~= ARGV[1] then
              return 0
            end
            redis.call('del', KEYS[1])
            redis.call('publish', ARGV[2], ARGV[3] .. ARGV[1] .. '|' .. KEYS[1])
            return 1
            """;

    public static final RedisScript<Long> OPERATOR_RELEASE =
            new DefaultRedisScript<>(OPERATOR_RELEASE_TEXT, Long.class);

    /** {@link #OPERATOR_RELEASE} announcing with {@code SPUBLISH} on a sharded release channel. */
    public static final RedisScript<Long> OPERATOR_RELEASE_SHARDED =
            new DefaultRedisScript<>(ReleaseChannels.shardedText(OPERATOR_RELEASE_TEXT), Long.class);

    private OperatorScripts() {}
}
