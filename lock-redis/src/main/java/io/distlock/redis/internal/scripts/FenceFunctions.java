package io.distlock.redis.internal.scripts;

/**
 * The Lua function {@code nextFence(counter)}, which every script that grants a hold calls for the hold's fencing
 * token. Such a script takes the counter's keep time in ms as its last ARGV: with 0 the counter is kept for ever and
 * counts 1, 2, 3 and so on; with a positive time the token is the larger of the counter plus one and Redis's time in
 * microseconds since 1970, and the counter expires that long after the key's latest grant. A key that comes back after
 * its counter expired thus gets a larger token than before, as long as Redis's clock was not set back by more than the
 * keep time meanwhile: no grant runs ahead of that clock, since no two scripts run in the same microsecond.
 */
public final class FenceFunctions {

    /** The function's Lua text, which a granting script starts with. */
    public static final String LUA = """
            local function nextFence(counter)
              local keep = tonumber(ARGV[#ARGV])
              local token = redis.call('incr', counter)
              if keep > 0 then
                local clock = redis.call('time')
                local micros = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
                if token < micros then
                  token = micros
                end
                redis.call('set', counter, string.format('%d', token), 'px', keep)
              end
              return token
            end
            """;

    /** The last ARGV of a granting script for counters that are kept for ever. */
    public static final String KEEP_FOR_EVER = "0";

    private FenceFunctions() {}
}
