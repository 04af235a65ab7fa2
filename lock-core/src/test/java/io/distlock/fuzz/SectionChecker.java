package io.distlock.fuzz;

import java.util.List;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Records critical sections in Redis, on a connection of its own, and catches two holders inside at once.
 *
 * <p>Entering, a section <em>claims</em> its lock key: a checker key naming the section, set to expire 2 ms before the
 * lock's own key does (its PTTL, read in the same script). The claim is the checker's witness that the section is
 * inside and that its lease has not run out; it never outlives the lease, so a holder whose lease ran out stops
 * counting as inside at the very moment another may legitimately take the lock. Hence:
 *
 * <ul>
 *   <li><b>overlap</b>: a section enters while another section's claim is alive;
 *   <li><b>taken early</b>: a section's lock key is gone or someone else's while its claim is still alive, or while,
 *       by the holder's own clock, less time than the lease has passed since it called for the lock (Redis set the
 *       lease after that call, and leases only grow): the lock was deleted or taken over before its lease ended, which
 *       also catches a lock stolen before its holder could claim it;
 *   <li><b>fencing</b>: a section enters with a fencing token not above every earlier one of that key.
 * </ul>
 *
 * <p>A section whose lock key is not its own any more when it enters or exits, once its lease may have run out, is
 * <em>lost</em>: no violation by itself, but its holder must learn of it, which the worker checks. The lock key is read
 * only to learn the remaining lease and whether it still names the holder's owner token (a prefix match, since
 * RedisLock may append a mark for waiters); every judgement is the checker's. Auto-renewed sections refresh their claim
 * from the lock key's PTTL while they run.
 */
final class SectionChecker {

    /** What the checker saw when a section entered. */
    enum Entry {
        /** The lock key was the holder's; the section claimed it. */
        CLAIMED,
        /** The lock key was not the holder's any more: the lease may have run out between acquisition and entry. */
        NOT_OWNED,
        /** Another section was inside, the fencing token went backwards, or the lock was taken early. */
        VIOLATION
    }

    /** What the checker saw at a checkpoint or exit of a section, from best to worst. */
    enum State {
        /** The lock key is still the holder's. */
        HELD,
        /** The lock key is not the holder's any more, and its claim and lease may have run out. */
        LOST,
        /** The lock key is not the holder's although its lease is certainly still alive. */
        VIOLATION
    }

    private static final RedisScript<Long> ENTER = new DefaultRedisScript<>("""
            -- KEYS: lock key, claim, last fencing token, fencing tokens, violations, details
            -- ARGV: owner token, section id, fencing token
            local holder = redis.call('get', KEYS[1])
            if not holder or string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return 0
            end
            local ttl = redis.call('pttl', KEYS[1])
            if ttl >= 0 and ttl <= 2 then
              return 0
            end
            local verdict = 1
            local occupant = redis.call('get', KEYS[2])
            if occupant and occupant ~= ARGV[2] then
              redis.call('hincrby', KEYS[5], 'overlap', 1)
              redis.call('rpush', KEYS[6], 'overlap: ' .. ARGV[2] .. ' entered while ' .. occupant
                .. ' was inside with lease left')
              verdict = -1
            end
            local last = tonumber(redis.call('get', KEYS[3]) or '0')
            if tonumber(ARGV[3]) <= last then
              redis.call('hincrby', KEYS[5], 'fencing', 1)
              redis.call('rpush', KEYS[6], 'fencing: ' .. ARGV[2] .. ' entered after fencing token ' .. last)
              verdict = -1
            else
              redis.call('set', KEYS[3], ARGV[3])
            end
            redis.call('ltrim', KEYS[6], 0, 199)
            redis.call('rpush', KEYS[4], ARGV[3])
            if ttl > 0 then
              redis.call('set', KEYS[2], ARGV[2], 'px', ttl - 2)
            else
              redis.call('set', KEYS[2], ARGV[2])
            end
            return verdict
            """, Long.class);

    private static final RedisScript<Long> CHECKPOINT = new DefaultRedisScript<>("""
            -- KEYS: lock key, claim, violations, details, lapses
            -- ARGV: owner token, section id, 'check' | 'refresh' | 'exit'
            local holder = redis.call('get', KEYS[1])
            local mine = holder and string.sub(holder, 1, #ARGV[1]) == ARGV[1]
            local occupant = redis.call('get', KEYS[2])
            if occupant == ARGV[2] then
              if ARGV[3] == 'exit' then
                redis.call('del', KEYS[2])
              end
              if not mine then
                redis.call('hincrby', KEYS[3], 'taken-early', 1)
                redis.call('rpush', KEYS[4], 'taken early: the lock of ' .. ARGV[2] .. ' was '
                  .. (holder and 'taken over' or 'deleted') .. ' before its lease ended')
                redis.call('ltrim', KEYS[4], 0, 199)
                return -1
              end
            elseif not mine then
              return 0
            elseif not occupant and redis.call('pttl', KEYS[1]) > 2 then
              redis.call('incr', KEYS[5])
            end
            if ARGV[3] == 'refresh' and (occupant == ARGV[2] or not occupant) then
              local ttl = redis.call('pttl', KEYS[1])
              if ttl > 2 then
                redis.call('set', KEYS[2], ARGV[2], 'px', ttl - 2)
              end
            end
            return 1
            """, Long.class);

    private final StringRedisTemplate redis;
    private final CheckerKeys keys;

    SectionChecker(StringRedisTemplate redis, CheckerKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Records that the section entered, right after its lock was acquired. */
    void enter(Section section) {
        Long verdict = run(
                ENTER,
                List.of(
                        section.lockKey(),
                        keys.claim(section.key()),
                        keys.lastFence(section.key()),
                        keys.fences(section.key()),
                        keys.violations(),
                        keys.details()),
                section.handle().ownerToken(),
                section.id(),
                Long.toString(section.handle().fencingToken()));
        int code = code(verdict);
        if (code == 0 && section.leaseCertainlyAlive()) {
            takenEarly(section, "entry");
            code = -1;
        }
        section.entered(
                switch (code) {
                    case 1 -> Entry.CLAIMED;
                    case 0 -> Entry.NOT_OWNED;
                    default -> Entry.VIOLATION;
                });
    }

    /** Checks, in the middle of a section, that its lock is still its own. */
    void check(Section section) {
        section.checked(checkpoint(section, "check"));
    }

    /** Checks like {@link #check} and extends the claim to the lock's current lease, for auto-renewed sections. */
    void refresh(Section section) {
        section.checked(checkpoint(section, "refresh"));
    }

    /** Records that the section exited, before its lock is released. */
    void exit(Section section) {
        section.checked(checkpoint(section, "exit"));
    }

    private State checkpoint(Section section, String mode) {
        Long verdict = run(
                CHECKPOINT,
                List.of(section.lockKey(), keys.claim(section.key()), keys.violations(), keys.details(), keys.lapses()),
                section.handle().ownerToken(),
                section.id(),
                mode);
        int code = code(verdict);
        if (code == 0 && section.leaseCertainlyAlive()) {
            takenEarly(section, mode);
            code = -1;
        }
        return switch (code) {
            case 1 -> State.HELD;
            case 0 -> State.LOST;
            default -> State.VIOLATION;
        };
    }

    /** The lock key was not the holder's although, by the holder's clock, its lease cannot have run out yet. */
    private void takenEarly(Section section, String when) {
        try {
            redis.opsForHash().increment(keys.violations(), "taken-early", 1);
            redis.opsForList()
                    .rightPush(
                            keys.details(),
                            "taken early: the lock of " + section.id() + " was gone at " + when
                                    + " before its lease could have run out");
        } catch (DataAccessException e) {
            throw new CheckerFailure(e);
        }
    }

    private Long run(RedisScript<Long> script, List<String> scriptKeys, String... args) {
        try {
            return redis.execute(script, scriptKeys, (Object[]) args);
        } catch (DataAccessException e) {
            throw new CheckerFailure(e);
        }
    }

    private static int code(Long verdict) {
        if (verdict == null) {
            throw new IllegalStateException("a checker script returned nothing");
        }
        return verdict.intValue();
    }

    /** The checker could not reach Redis; its records may miss a section, so the run cannot be trusted. */
    static final class CheckerFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        CheckerFailure(Throwable cause) {
            super("the checker's Redis call failed: " + cause.getMessage(), cause);
        }
    }
}
