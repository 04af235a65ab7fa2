package io.distlock.redis;

import java.util.List;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the {@linkplain FairLock fair lock}: a queue of waiters in Redis, served first come first served,
 * with the lock handed straight to the head of the queue on release.
 *
 * <p>KEYS of every script, all under the lock key's hash tag: the lock, its fencing counter, the queue (a sorted set of
 * tickets by arrival number), the waiters (a hash from ticket to {@code <owner token> <lease ms>}), the deadlines (a
 * sorted set of tickets by the server time, in ms, at which they leave the queue unless they call again), and the
 * arrival counter.
 *
 * <p>A waiter calls {@link #ACQUIRE} again well within its deadline (its heartbeat); a waiter that dies, or is paused
 * past its deadline, is swept out by the next script that runs on the lock. A waiter at the head of the queue is handed
 * the lock for at most its heartbeat timeout (the <em>provisional</em> lease), so a waiter that died just before its
 * turn keeps the line no longer than that; the waiter extends it to its full lease as soon as it hears of the
 * handover. The handover is announced on the release channel as {@code !<ticket> <fencing token> <server time ms>
 * <provisional lease ms>}:
 * tickets, unlike owner tokens, are not secret. Lease time is Redis's: every deadline is compared with Redis's {@code
 * TIME}.
 */
final class FairScripts {

    /**
     * The shared prelude. ARGV[1] is always the release channel. Defines {@code now} (Redis's time in ms), {@code
     * drop(ticket)}, {@code sweep()} and {@code handToHead()}, which gives the free lock to the first live waiter and
     * announces it, returning whether there was one.
     */
    private static final String PRELUDE = """
            local lock, fence, queue, waiters, deadlines, arrivals = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local function drop(ticket)
              redis.call('zrem', queue, ticket)
              redis.call('hdel', waiters, ticket)
              redis.call('zrem', deadlines, ticket)
            end
            local function sweep()
              for _, ticket in ipairs(redis.call('zrangebyscore', deadlines, '-inf', now)) do
                drop(ticket)
              end
            end
            local function handToHead()
              while true do
                local head = redis.call('zrange', queue, 0, 0)[1]
                if not head then
                  return false
                end
                local entry = redis.call('hget', waiters, head)
                local deadline = redis.call('zscore', deadlines, head)
                drop(head)
                if entry and deadline then
                  local space = string.find(entry, ' ', 1, true)
                  local token = string.sub(entry, 1, space - 1)
                  local lease = tonumber(string.sub(entry, space + 1))
                  local provisional = math.min(lease, math.max(1, tonumber(deadline) - now))
                  redis.call('set', lock, token, 'px', provisional)
                  local granted = redis.call('incr', fence)
                  redis.call('publish', ARGV[1], '!' .. head .. ' ' .. granted .. ' ' .. now .. ' ' .. provisional)
                  return true
                end
              end
            end
            sweep()
            """;

    /**
     * ARGV: release channel, ticket, owner token, lease ms, heartbeat timeout ms, 1 to wait in the queue (else 0).
     * Takes the lock if it is free and nobody waits ahead of the ticket; otherwise, when waiting, queues the ticket (or
     * keeps its place) until the heartbeat timeout from now. A lock already handed to the token is extended to the full
     * lease. A free lock with other waiters ahead is handed to the first of them. Returns {@code {fencing token, lease
     * ms, now}} when the token holds the lock, else {@code {0, holder's PTTL, now}}.
     */
    static final RedisScript<List<Long>> ACQUIRE = listScript(PRELUDE + """
            local ticket, token, lease, timeout = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
            local holder = redis.call('get', lock)
            if holder and string.sub(holder, 1, #token) == token then
              drop(ticket)
              if redis.call('pttl', lock) < lease then
                redis.call('pexpire', lock, lease)
              end
              return {tonumber(redis.call('get', fence)), redis.call('pttl', lock), now}
            end
            if not holder then
              local head = redis.call('zrange', queue, 0, 0)[1]
              if not head or head == ticket then
                drop(ticket)
                redis.call('set', lock, token, 'px', lease)
                return {redis.call('incr', fence), lease, now}
              end
              handToHead()
            end
            if ARGV[6] == '1' then
              if not redis.call('zscore', queue, ticket) then
                redis.call('zadd', queue, redis.call('incr', arrivals), ticket)
                redis.call('hset', waiters, ticket, token .. ' ' .. lease)
              end
              redis.call('zadd', deadlines, now + timeout, ticket)
              for _, key in ipairs({queue, waiters, deadlines, arrivals}) do
                redis.call('pexpire', key, timeout * 4)
              end
            end
            return {0, redis.call('pttl', lock), now}
            """);

    /**
     * ARGV: release channel, owner token. Releases the lock if the token owns it, handing it to the first live waiter
     * if there is one. Returns 1 if released, 0 if the key was gone, -1 if another owner holds it.
     */
    static final RedisScript<Long> RELEASE = script(PRELUDE + """
            local holder = redis.call('get', lock)
            if not holder then
              handToHead()
              return 0
            end
            if string.sub(holder, 1, #ARGV[2]) ~= ARGV[2] then
              return -1
            end
            redis.call('del', lock)
            handToHead()
            return 1
            """);

    /**
     * ARGV: release channel, ticket, owner token. Takes the ticket out of the queue; if the lock was handed to the
     * token meanwhile, releases it as {@link #RELEASE} does. Returns 1 if it had been handed over and was released, 0
     * otherwise.
     */
    static final RedisScript<Long> LEAVE = script(PRELUDE + """
            drop(ARGV[2])
            local holder = redis.call('get', lock)
            if holder and string.sub(holder, 1, #ARGV[3]) == ARGV[3] then
              redis.call('del', lock)
              handToHead()
              return 1
            end
            if not holder then
              handToHead()
            end
            return 0
            """);

    private FairScripts() {}

    private static RedisScript<Long> script(String text) {
        return new DefaultRedisScript<>(text, Long.class);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static RedisScript<List<Long>> listScript(String text) {
        return new DefaultRedisScript(text, List.class);
    }
}
