package io.distlock.test.fuzz;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua side of {@link PathChecker}, each judgement after the {@link LockView}'s prelude has read the section's own
 * lock key. A tree's claims are one hash of the checker's, from section id to when the claim ends in Redis's time and
 * the path it holds; since Redis 7.0 cannot expire a single hash field, the scripts drop the claims whose end has
 * passed as they read them. Paths are compared segment by segment, split on {@code /} by plain search, never by string
 * prefix or by a Lua pattern, which is what the path lock may get wrong.
 */
final class PathCheckerScripts {

    /**
     * Lua shared by the scripts: a path's segments; how one path stands to another ({@code nil} if they conflict in no
     * way); and the live claims of a tree but a given section's, dropping the claims whose end has passed.
     */
    private static final String PATHS = """
            local function segments(path)
              local list = {}
              if path == '' then
                return list
              end
              local from = 1
              while true do
                local slash = string.find(path, '/', from, true)
                if not slash then
                  list[#list + 1] = string.sub(path, from)
                  return list
                end
                list[#list + 1] = string.sub(path, from, slash - 1)
                from = slash + 1
              end
            end
            local function relation(mine, other)
              for i = 1, math.min(#mine, #other) do
                if mine[i] ~= other[i] then
                  return nil
                end
              end
              if #other == #mine then
                return 'the same path'
              end
              return #other < #mine and 'an ancestor' or 'a descendant'
            end
            local function live_claims(claims_key, own, now)
              local live = {}
              local claims = redis.call('hgetall', claims_key)
              for i = 1, #claims, 2 do
                local space = string.find(claims[i + 1], ' ', 1, true)
                local ends = string.sub(claims[i + 1], 1, space - 1)
                if ends ~= 'inf' and tonumber(ends) <= now then
                  redis.call('hdel', claims_key, claims[i])
                elseif claims[i] ~= own then
                  live[#live + 1] = {claims[i], string.sub(claims[i + 1], space + 1)}
                end
              end
              return live
            end
            """;

    /**
     * A section may enter its path only while no claim is alive on the path, an ancestor or a descendant; its fencing
     * token must be above every token that entered any of them before, the tree having one counter for all its paths.
     * A section entering while others are inside paths apart from its own is counted, to show that the lock does let
     * them in together.
     */
    private static final String ENTER = """
            -- KEYS: claims, fences by path, entries, sections beside others in the tree, violations, violations of the
            -- tree, details; the view's. ARGV: owner token, section id, fencing token, canonical path; the view's.
            -- holder and ttl: the view's prelude.
            if not holder or string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return 0
            end
            if ttl >= 0 and ttl <= 2 then
              return 0
            end
            local now = server_ms()
            local mine = segments(ARGV[4])
            local verdict = 1
            local beside = false
            for _, claim in ipairs(live_claims(KEYS[1], ARGV[2], now)) do
              local how = relation(mine, segments(claim[2]))
              if how then
                violation('overlap', 'overlap: ' .. ARGV[2] .. ' entered "' .. ARGV[4] .. '" while ' .. claim[1]
                  .. ' was inside ' .. how .. ', "' .. claim[2] .. '", with lease left')
                verdict = -1
              else
                beside = true
              end
            end
            if beside then
              redis.call('incr', KEYS[4])
            end
            local fence = tonumber(ARGV[3])
            local fences = redis.call('hgetall', KEYS[2])
            for i = 1, #fences, 2 do
              local how = relation(mine, segments(fences[i]))
              if how and tonumber(fences[i + 1]) >= fence then
                violation('fencing', 'fencing: ' .. ARGV[2] .. ' entered "' .. ARGV[4] .. '" after fencing token '
                  .. fences[i + 1] .. ' had entered ' .. how .. ', "' .. fences[i] .. '"')
                verdict = -1
                break
              end
            end
            if fence > tonumber(redis.call('hget', KEYS[2], ARGV[4]) or '0') then
              redis.call('hset', KEYS[2], ARGV[4], ARGV[3])
            end
            redis.call('rpush', KEYS[3], ARGV[3] .. ' ' .. ARGV[4])
            local ends = 'inf'
            if ttl > 0 then
              ends = string.format('%.0f', ttl_at + ttl - 2)
            end
            redis.call('hset', KEYS[1], ARGV[2], ends .. ' ' .. ARGV[4])
            return verdict
            """;

    /**
     * As {@link CheckerScripts}' checkpoint: a live claim whose lock is not the holder's any more was taken early; a
     * claim that ran out while the lock is still the holder's with lease left is a lapse. A renewed section extends its
     * claim, or claims again after a lapse unless a conflicting section is inside by then.
     */
    private static final String CHECKPOINT = """
            -- KEYS: claims, violations, violations of the tree, details, lapses; the view's. ARGV: owner token,
            -- section id, 'check' | 'refresh' | 'exit', canonical path; the view's. holder and ttl: the view's prelude.
            local mine = holder and string.sub(holder, 1, #ARGV[1]) == ARGV[1]
            local now = server_ms()
            local claim = redis.call('hget', KEYS[1], ARGV[2])
            local claimed = false
            if claim then
              local ends = string.sub(claim, 1, string.find(claim, ' ', 1, true) - 1)
              claimed = ends == 'inf' or tonumber(ends) > now
              if ARGV[3] == 'exit' or not claimed then
                redis.call('hdel', KEYS[1], ARGV[2])
              end
            end
            if claimed then
              if not mine then
                violation('taken-early', 'taken early: the lock of ' .. ARGV[2] .. ' on "' .. ARGV[4] .. '" was '
                  .. (holder and 'taken over' or 'deleted') .. ' before its lease ended')
                return -1
              end
            elseif not mine then
              return 0
            elseif ttl > 2 then
              redis.call('incr', KEYS[5])
            end
            if ARGV[3] == 'refresh' and ttl > 2 then
              if not claimed then
                local segs = segments(ARGV[4])
                for _, other in ipairs(live_claims(KEYS[1], ARGV[2], now)) do
                  if relation(segs, segments(other[2])) then
                    return 1
                  end
                end
              end
              redis.call('hset', KEYS[1], ARGV[2], string.format('%.0f', ttl_at + ttl - 2) .. ' ' .. ARGV[4])
            end
            return 1
            """;

    /** KEYS: claims. ARGV: section id. Removes the section's claim, if it still has one, without judging anything. */
    static final RedisScript<Long> LEAVE =
            new DefaultRedisScript<>("return redis.call('hdel', KEYS[1], ARGV[1])", Long.class);

    /**
     * KEYS: claims, refusals by relatives, refusals by no section. ARGV: canonical path. Counts a refused acquisition of
     * the path if a section is inside an ancestor or descendant of it, and none inside the path itself: only a relative
     * can have refused it; or, apart, if no section is inside the path, an ancestor or a descendant: the refusing hold
     * was between acquisition and entry, between exit and release, or held by no section at all.
     */
    static final RedisScript<Long> REFUSED = new DefaultRedisScript<>("""
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            """ + PATHS + """
            local mine = segments(ARGV[1])
            local by_relative = 0
            for _, claim in ipairs(live_claims(KEYS[1], '', now)) do
              local how = relation(mine, segments(claim[2]))
              if how == 'the same path' then
                return 0
              elseif how then
                by_relative = 1
              end
            end
            if by_relative == 1 then
              redis.call('incr', KEYS[2])
            else
              redis.call('incr', KEYS[3])
            end
            return by_relative
            """, Long.class);

    private PathCheckerScripts() {}

    /** The entry judgement after {@code lockView}'s prelude. */
    static RedisScript<Long> enter(LockView lockView) {
        return CheckerScripts.script(lockView, PATHS + ENTER, 5);
    }

    /** The judgement at a checkpoint or exit, after {@code lockView}'s prelude. */
    static RedisScript<Long> checkpoint(LockView lockView) {
        return CheckerScripts.script(lockView, PATHS + CHECKPOINT, 2);
    }
}
