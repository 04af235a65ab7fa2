package io.distlock.redis.internal.scripts;

/**
 * Lua functions for the holder's part of a value: {@code heldBy(name)} is what an acquisition writes after the owner
 * token ({@code #}, Redis's time in ms in 13 digits, {@code #}, the holder's instance name), and {@code
 * splitMark(value)} splits a value into its owner (token and holder's part) and its mark ({@code +<instance id>},
 * {@code *} or empty). Neither tokens, nor the time, nor instance names contain {@code +} or {@code *}.
 */
public final class HolderFunctions {

    /** The functions' Lua text, which a script that writes or reads a lock's value starts with. */
    public static final String LUA = """
            local function heldBy(name)
              local clock = redis.call('time')
              return '#' .. clock[1] .. string.format('%03d', math.floor(tonumber(clock[2]) / 1000)) .. '#' .. name
            end
            local function splitMark(value)
              local at = string.find(value, '[%+%*]')
              if at then
                return string.sub(value, 1, at - 1), string.sub(value, at)
              end
              return value, ''
            end
            """;

    private HolderFunctions() {}
}
