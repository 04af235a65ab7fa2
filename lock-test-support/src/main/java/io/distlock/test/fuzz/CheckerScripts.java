package io.distlock.test.fuzz;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua side of {@link SectionChecker}: the judgements its scripts make on the checker's own Redis, each after the
 * {@link LockView}'s prelude has read the lock key. Every section is a writer ({@code 'w'}: an exclusive holder, or
 * the writer of a read-write lock) or a reader ({@code 'r'}). A writer claims its key with a string key of its own
 * that expires 2 ms before its lease; readers, who may be inside together, claim it as members of a sorted set scored
 * by when their claim ends in Redis's time, since Redis 7.0 cannot expire a single member or hash field: the scripts
 * drop the members whose end has passed before they judge.
 */
final class CheckerScripts {

    /**
     * Lua shared by the scripts: counts a violation of {@code kind}, overall and for the key, and describes it, in the
     * three keys from {@code violations_at} on; and the Redis server's time in ms, the only clock readers' claims go by.
     */
    private static final String SHARED = """
            local function violation(kind, description)
              redis.call('hincrby', KEYS[violations_at], kind, 1)
              redis.call('hincrby', KEYS[violations_at + 1], kind, 1)
              redis.call('rpush', KEYS[violations_at + 2], description)
              redis.call('ltrim', KEYS[violations_at + 2], 0, 199)
            end
            local function server_ms()
              local clock = redis.call('time')
              return tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            end
            """;

    /**
     * A writer may enter only while no claim is alive, a reader only while no writer's claim is; a writer's fencing
     * token must be above every earlier one of the key, a reader's above the last writer's that entered, since readers
     * that got their tokens in one order may well enter in another. A reader entering beside other readers is counted,
     * to show that readers do share the key.
     */
    private static final String ENTER = """
            -- KEYS: writer's claim, readers' claims, last fencing token, last writer's fencing token, fencing tokens,
            -- readers that entered beside readers, violations, violations of the key, details; the view's
            -- ARGV: owner token, section id, fencing token, 'w' | 'r'; the view's. holder and ttl: the view's prelude.
            if not holder or string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return 0
            end
            if ttl >= 0 and ttl <= 2 then
              return 0
            end
            local reader = ARGV[4] == 'r'
            local now = server_ms()
            local verdict = 1
            local occupant = redis.call('get', KEYS[1])
            if occupant and occupant ~= ARGV[2] then
              violation('overlap', 'overlap: ' .. ARGV[2] .. ' entered while ' .. occupant
                .. ' was inside with lease left')
              verdict = -1
            end
            redis.call('zremrangebyscore', KEYS[2], '-inf', now)
            local readers = redis.call('zrange', KEYS[2], 0, 0)
            if #readers > 0 then
              if reader then
                redis.call('incr', KEYS[6])
              else
                violation('overlap', 'overlap: writer ' .. ARGV[2] .. ' entered while reader ' .. readers[1]
                  .. ' was inside with lease left')
                verdict = -1
              end
            end
            local fence = tonumber(ARGV[3])
            local last = tonumber(redis.call('get', KEYS[3]) or '0')
            local floor = last
            if reader then
              floor = tonumber(redis.call('get', KEYS[4]) or '0')
            end
            if fence <= floor then
              violation('fencing', 'fencing: ' .. ARGV[2] .. ' entered after '
                .. (reader and "a writer's " or '') .. 'fencing token ' .. floor)
              verdict = -1
            elseif fence > last then
              redis.call('set', KEYS[3], ARGV[3])
            end
            if reader then
              redis.call('rpush', KEYS[5], 'r' .. ARGV[3])
              redis.call('zadd', KEYS[2], ttl > 0 and string.format('%.0f', ttl_at + ttl - 2) or '+inf', ARGV[2])
              return verdict
            end
            if fence > floor then
              redis.call('set', KEYS[4], ARGV[3])
            end
            redis.call('rpush', KEYS[5], ARGV[3])
            if ttl > 0 then
              redis.call('set', KEYS[1], ARGV[2], 'pxat', string.format('%.0f', ttl_at + ttl - 2))
            else
              redis.call('set', KEYS[1], ARGV[2])
            end
            return verdict
            """;

    private static final String CHECKPOINT = """
            -- KEYS: writer's claim, readers' claims, violations, violations of the key, details, lapses; the view's
            -- ARGV: owner token, section id, 'check' | 'refresh' | 'exit', 'w' | 'r'; the view's. holder and ttl: the
            -- view's prelude.
            local mine = holder and string.sub(holder, 1, #ARGV[1]) == ARGV[1]
            local reader = ARGV[4] == 'r'
            local now = server_ms()
            local occupant = redis.call('get', KEYS[1])
            local claimed = occupant == ARGV[2]
            if reader then
              redis.call('zremrangebyscore', KEYS[2], '-inf', now)
              claimed = redis.call('zscore', KEYS[2], ARGV[2]) ~= false
            end
            if claimed then
              if ARGV[3] == 'exit' then
                if reader then
                  redis.call('zrem', KEYS[2], ARGV[2])
                else
                  redis.call('del', KEYS[1])
                end
              end
              if not mine then
                violation('taken-early', 'taken early: the lock of ' .. ARGV[2] .. ' was '
                  .. (holder and 'taken over' or 'deleted') .. ' before its lease ended')
                return -1
              end
            elseif not mine then
              return 0
            elseif not occupant and ttl > 2 then
              redis.call('incr', KEYS[6])
            end
            if ARGV[3] == 'refresh' and (claimed or not occupant) and ttl > 2 then
              if reader then
                redis.call('zadd', KEYS[2], string.format('%.0f', ttl_at + ttl - 2), ARGV[2])
              else
                redis.call('set', KEYS[1], ARGV[2], 'pxat', string.format('%.0f', ttl_at + ttl - 2))
              end
            end
            return 1
            """;

    /**
     * KEYS: writer's claim, readers' claims. ARGV: section id. Removes the section's claim, if it still has one, without
     * judging anything.
     */
    static final RedisScript<Long> LEAVE = new DefaultRedisScript<>("""
            redis.call('zrem', KEYS[2], ARGV[1])
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('del', KEYS[1])
            end
            return 0
            """, Long.class);

    private CheckerScripts() {}

    /** The entry judgement after {@code lockView}'s prelude. */
    static RedisScript<Long> enter(LockView lockView) {
        return script(lockView, ENTER, 7);
    }

    /** The judgement at a checkpoint or exit, after {@code lockView}'s prelude. */
    static RedisScript<Long> checkpoint(LockView lockView) {
        return script(lockView, CHECKPOINT, 3);
    }

    /**
     * A judgement: {@code lockView}'s prelude, the shared Lua (whose violations are counted in the three keys from
     * {@code violationsAt} on), then {@code body}.
     */
    static RedisScript<Long> script(LockView lockView, String body, int violationsAt) {
        return new DefaultRedisScript<>(
                lockView.prelude() + "local violations_at = " + violationsAt + "\n" + SHARED + body, Long.class);
    }
}
