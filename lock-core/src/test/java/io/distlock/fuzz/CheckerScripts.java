package io.distlock.fuzz;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua side of {@link SectionChecker}: the judgements its scripts make on the checker's own Redis, each after the
 * {@link LockView}'s prelude has read the lock key.
 */
final class CheckerScripts {

    /**
     * Lua shared by the scripts: counts a violation of {@code kind}, overall and for the key, and describes it, in the
     * three keys from {@code violations_at} on.
     */
    private static final String VIOLATION = """
            local function violation(kind, description)
              redis.call('hincrby', KEYS[violations_at], kind, 1)
              redis.call('hincrby', KEYS[violations_at + 1], kind, 1)
              redis.call('rpush', KEYS[violations_at + 2], description)
              redis.call('ltrim', KEYS[violations_at + 2], 0, 199)
            end
            """;

    private static final String ENTER = """
            -- KEYS: claim, last fencing token, fencing tokens, violations, violations of the key, details; the view's
            -- ARGV: owner token, section id, fencing token; the view's. holder and ttl come from the view's prelude.
            if not holder or string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return 0
            end
            if ttl >= 0 and ttl <= 2 then
              return 0
            end
            local verdict = 1
            local occupant = redis.call('get', KEYS[1])
            if occupant and occupant ~= ARGV[2] then
              violation('overlap', 'overlap: ' .. ARGV[2] .. ' entered while ' .. occupant
                .. ' was inside with lease left')
              verdict = -1
            end
            local last = tonumber(redis.call('get', KEYS[2]) or '0')
            if tonumber(ARGV[3]) <= last then
              violation('fencing', 'fencing: ' .. ARGV[2] .. ' entered after fencing token ' .. last)
              verdict = -1
            else
              redis.call('set', KEYS[2], ARGV[3])
            end
            redis.call('rpush', KEYS[3], ARGV[3])
            if ttl > 0 then
              redis.call('set', KEYS[1], ARGV[2], 'px', ttl - 2)
            else
              redis.call('set', KEYS[1], ARGV[2])
            end
            return verdict
            """;

    private static final String CHECKPOINT = """
            -- KEYS: claim, violations, violations of the key, details, lapses; the view's
            -- ARGV: owner token, section id, 'check' | 'refresh' | 'exit'; the view's. holder and ttl: the prelude's.
            local mine = holder and string.sub(holder, 1, #ARGV[1]) == ARGV[1]
            local occupant = redis.call('get', KEYS[1])
            if occupant == ARGV[2] then
              if ARGV[3] == 'exit' then
                redis.call('del', KEYS[1])
              end
              if not mine then
                violation('taken-early', 'taken early: the lock of ' .. ARGV[2] .. ' was '
                  .. (holder and 'taken over' or 'deleted') .. ' before its lease ended')
                return -1
              end
            elseif not mine then
              return 0
            elseif not occupant and ttl > 2 then
              redis.call('incr', KEYS[5])
            end
            if ARGV[3] == 'refresh' and (occupant == ARGV[2] or not occupant) and ttl > 2 then
              redis.call('set', KEYS[1], ARGV[2], 'px', ttl - 2)
            end
            return 1
            """;

    /** KEYS: claim. ARGV: section id. Removes the section's claim, if it still has one, without judging anything. */
    static final RedisScript<Long> LEAVE = new DefaultRedisScript<>("""
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('del', KEYS[1])
            end
            return 0
            """, Long.class);

    private CheckerScripts() {}

    /** The entry judgement after {@code lockView}'s prelude. */
    static RedisScript<Long> enter(LockView lockView) {
        return script(lockView, ENTER, 4);
    }

    /** The judgement at a checkpoint or exit, after {@code lockView}'s prelude. */
    static RedisScript<Long> checkpoint(LockView lockView) {
        return script(lockView, CHECKPOINT, 2);
    }

    private static RedisScript<Long> script(LockView lockView, String body, int violationsAt) {
        return new DefaultRedisScript<>(
                lockView.prelude() + "local violations_at = " + violationsAt + "\n" + VIOLATION + body, Long.class);
    }
}
