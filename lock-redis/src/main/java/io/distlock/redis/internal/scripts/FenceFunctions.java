package io.distlock.redis.internal.scripts;

/**
 * The Lua functions {@code nextFence(counter)} and {@code nextFences(counter, count)}, which every script that grants a
 * hold calls for the hold's fencing token. Such a script takes the counter's keep time in ms as its last ARGV: with 0
 * the counter is kept for ever and counts 1, 2, 3 and so on; with a positive time the token is the larger of the
 * counter plus one and Redis's time in microseconds since 1970, and the counter expires that long after the key's
 * latest grant. A key that comes back after its counter expired thus gets a larger token than before, as long as
 * Redis's clock was not set back by more than the keep time meanwhile: no grant runs ahead of that clock, since no two
 * scripts run in the same microsecond.
 *
 * <p>{@code nextFences} reserves {@code count} tokens in a row for a run of local handovers ({@link
 * io.distlock.redis.RedisLockBuilder#localHandoverWindow}): it returns the first, and the counter keeps the last, so
 * that every later grant of the key, by any instance, is larger than all of them. A single token is taken with {@code
 * INCR}, so that an ACL that allows no {@code INCRBY} serves every lock but local handover.
 */
public final class FenceFunctions {

    /** The functions' Lua text, which a granting script starts with. */
    public static final String LUA = """
            local function nextFences(counter, count)
              local keep = tonumber(ARGV[#ARGV])
              local last
              if count == 1 then
                last = redis.call('incr', counter)
              else
                last = redis.call('incrby', counter, count)
              end
              local token = last - count + 1
              if keep > 0 then
                local clock = redis.call('time')
                local micros = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
                if token < micros then
                  token = micros
                  last = micros + count - 1
                end
                redis.call('set', counter, string.format('%d', last), 'px', keep)
              end
              return token
            end
            local function nextFence(counter)
              return nextFences(counter, 1)
            end
            """;

    /** The last ARGV of a granting script for counters that are kept for ever. */
    public static final String KEEP_FOR_EVER = "0";

    private FenceFunctions() {}
}
