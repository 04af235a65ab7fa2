package io.distlock.redis.internal.fair;

import io.distlock.redis.internal.scripts.FenceFunctions;
import io.distlock.redis.internal.scripts.HolderFunctions;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import java.util.List;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the {@linkplain io.distlock.redis.FairLock fair lock}: a queue of waiters in Redis, served first
 * come first served, with the lock handed straight to the head of the queue on release.
 *
 * <p>KEYS of every script, all under the lock key's hash tag: the lock, its fencing counter, the queue (a sorted set of
 * tickets by arrival number), the waiters (a hash from ticket to {@code <owner token> <lease ms> <deadline> <instance
 * name>}, the
 * deadline being the server time, in ms, at which the ticket leaves the queue unless its waiter calls again), and the
 * arrival counter. While {@linkplain io.distlock.redis.ReadLock readers} hold the lock key (a hash then, see {@link
 * io.distlock.redis.internal.scripts.LockScripts}), it counts as held, and a waiting fair writer marks it so that new
 * readers yield.
 *
 * <p>A ticket starts with its lock instance's id and a dot. A waiter calls {@link #ACQUIRE} again well within its
 * deadline (its heartbeat); a waiter that dies, or is paused past its deadline, is skipped and dropped when its turn
 * comes. A waiter at the head of the queue is handed the lock for at most what is left of its deadline (the
 * <em>provisional</em> lease), so a waiter that died just before its turn keeps the line no longer than that; a live
 * waiter extends it to its full lease if it still holds the lock after a third of it. A waiter of the instance that
 * runs the script is alive as that instance is: it gets its full lease at once, and hears of the handover from the
 * script's answer. A handover to another instance's waiter is announced on that instance's own channel (see {@link
 * ReleaseChannels#handoverChannel}) as {@code !<ticket> <fencing token> <server time ms> <lease ms>}; tickets, unlike
 * owner tokens, are not secret. Lease time is Redis's: every deadline is compared with Redis's {@code TIME}.
 */
public final class FairScripts {

    /**
     * The shared prelude. ARGV[1] is always the prefix of the instances' handover channels (the waiter's instance id
     * follows it), ARGV[2] the calling instance's id, and the last ARGV the fencing counter's keep time ({@link
     * FenceFunctions}). Defines {@code now} (Redis's time in ms), {@code holderOf()}, the lock's value, {@code #} while
     * readers hold it, and nil when it is free or reserved for writers by the last reader ({@code ~}, see {@link
     * io.distlock.redis.internal.scripts.LockScripts#RELEASE}), {@code drop(ticket)}, {@code liveHead()}, which drops
     * expired tickets at the head and returns the first live one with its entry's parts, and {@code
     * handToHead(announceOwn)}, which gives the free lock to the first live waiter, announcing it unless the waiter is
     * the calling instance's and {@code announceOwn} is false,
     * and returns {@code {ticket, fencing token, now, lease ms}}, or {@code {''}} if nobody waits; and {@code
     * announceFree(holder)}, which tells the waiters that do not queue (plain and read acquisitions, which mark
     * the holder's value after its token as {@link io.distlock.redis.internal.scripts.LockScripts#ACQUIRE} describes)
     * that the lock is free, on the release channel (ARGV[1] without its final colon) as a plain release does, when
     * another instance's waiters marked it.
     */
    private static final String PRELUDE = HolderFunctions.LUA + FenceFunctions.LUA + """
            local lock, fence, queue, waiters, arrivals = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local function holderOf()
              local kind = redis.call('type', lock).ok
              if kind == 'string' then
                local value = redis.call('get', lock)
                if value == '~' then
                  return nil
                end
                return value
              elseif kind == 'hash' then
                return '#'
              end
              return nil
            end
            local function drop(ticket)
              redis.call('zrem', queue, ticket)
              redis.call('hdel', waiters, ticket)
            end
            local function liveHead()
              while true do
                local head = redis.call('zrange', queue, 0, 0)[1]
                if not head then
                  return nil
                end
                local entry = redis.call('hget', waiters, head)
                if entry then
                  local token, lease, deadline, name = string.match(entry, '^(%S+) (%d+) (%d+) ?(.*)$')
                  if token and tonumber(deadline) > now then
                    return head, token, tonumber(lease), tonumber(deadline), name
                  end
                end
                drop(head)
              end
            end
            local function handToHead(announceOwn)
              local head, token, lease, deadline, name = liveHead()
              if not head then
                return {''}
              end
              drop(head)
              local own = string.sub(head, 1, #ARGV[2] + 1) == ARGV[2] .. '.'
              local given = lease
              if not own then
                given = math.min(lease, deadline - now)
              end
              redis.call('set', lock, token .. heldBy(name), 'px', given)
              local granted = nextFence(fence)
              if announceOwn or not own then
                local instance = string.sub(head, 1, string.find(head, '.', 1, true) - 1)
                redis.call('publish', ARGV[1] .. instance, '!' .. head .. ' ' .. granted .. ' ' .. now .. ' ' .. given)
              end
              return {head, granted, now, given}
            end
            local function announceFree(holder)
              local _, mark = splitMark(holder)
              if mark ~= '' and mark ~= '+' .. ARGV[2] then
                redis.call('publish', string.sub(ARGV[1], 1, -2), ARGV[2] .. lock)
              end
            end
            """;

    /**
     * ARGV: handover channel prefix, instance id, ticket, owner token, lease ms, heartbeat timeout ms, 1 to wait in the
     * queue (else 0), the instance name the lock's value names as its holder ({@link HolderFunctions.LUA}), the fencing counter's keep time. Takes the lock if it is free and nobody waits ahead of the ticket; otherwise, when waiting,
     * queues the ticket (or keeps its place) until the heartbeat timeout from now. A lock already handed to the token
     * is extended to the full lease. A free lock with other waiters ahead is handed to the first of them. Returns
     * {@code {fencing token, lease ms, now}} when the token holds the lock, else {@code {0, holder's PTTL, now}}.
     */
    private static final String ACQUIRE_TEXT = PRELUDE + """
            local ticket, token, lease, timeout = ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
            local holder = holderOf()
            if holder and string.sub(holder, 1, #token) == token then
              drop(ticket)
              if redis.call('pttl', lock) < lease then
                redis.call('pexpire', lock, lease)
              end
              return {tonumber(redis.call('get', fence)), redis.call('pttl', lock), now}
            end
            if not holder then
              local head = liveHead()
              if not head or head == ticket then
                drop(ticket)
                redis.call('set', lock, token .. heldBy(ARGV[8]), 'px', lease)
                return {nextFence(fence), lease, now}
              end
              local handover = handToHead(true)
              if handover[1] == ticket then
                return {handover[2], handover[4], now}
              end
            end
            if holder == '#' and ARGV[7] == '1' then
              redis.call('hset', lock, '~w', now + math.max(0, redis.call('pttl', lock)))
            end
            if ARGV[7] == '1' then
              if not redis.call('zscore', queue, ticket) then
                redis.call('zadd', queue, redis.call('incr', arrivals), ticket)
              end
              redis.call('hset', waiters, ticket, token .. ' ' .. lease .. ' ' .. (now + timeout) .. ' ' .. ARGV[8])
              redis.call('pexpire', queue, timeout * 4)
              redis.call('pexpire', waiters, timeout * 4)
              redis.call('pexpire', arrivals, timeout * 4)
            end
            return {0, redis.call('pttl', lock), now}
            """;

    static final RedisScript<List<Long>> ACQUIRE = listScript(ACQUIRE_TEXT);

    /** {@link #ACQUIRE} announcing with {@code SPUBLISH} on sharded channels. */
    static final RedisScript<List<Long>> ACQUIRE_SHARDED = listScript(ReleaseChannels.shardedText(ACQUIRE_TEXT));

    /**
     * ARGV: handover channel prefix, instance id, owner token, the fencing counter's keep time. Releases the lock if the token owns it, handing it to
     * the first live waiter if there is one, or else announcing it to the waiters that do not queue. Returns 1 if
     * released, 0 if the key was gone, -1 if another owner holds it, followed by what {@code handToHead()} returned.
     */
    private static final String RELEASE_TEXT = PRELUDE + """
            local holder = holderOf()
            if not holder then
              local handover = handToHead(false)
              table.insert(handover, 1, 0)
              return handover
            end
            if string.sub(holder, 1, #ARGV[3]) ~= ARGV[3] then
              return {-1, ''}
            end
            redis.call('del', lock)
            local handover = handToHead(false)
            if handover[1] == '' then
              announceFree(holder)
            end
            table.insert(handover, 1, 1)
            return handover
            """;

    static final RedisScript<List<Object>> RELEASE = mixedListScript(RELEASE_TEXT);

    /** {@link #RELEASE} announcing with {@code SPUBLISH} on sharded channels. */
    static final RedisScript<List<Object>> RELEASE_SHARDED = mixedListScript(ReleaseChannels.shardedText(RELEASE_TEXT));

    /**
     * ARGV: handover channel prefix, instance id, ticket, owner token, the fencing counter's keep time. Takes the ticket out of the queue; if the lock
     * was handed to the token meanwhile, releases it as {@link #RELEASE} does. Returns 1 if it had been handed over and
     * was released, else 0, followed by what {@code handToHead()} returned.
     */
    private static final String LEAVE_TEXT = PRELUDE + """
            drop(ARGV[3])
            local holder = holderOf()
            local released = 0
            if holder and string.sub(holder, 1, #ARGV[4]) == ARGV[4] then
              redis.call('del', lock)
              released = 1
            end
            local handover = {''}
            if not holder or released == 1 then
              handover = handToHead(false)
            end
            if released == 1 and handover[1] == '' then
              announceFree(holder)
            end
            table.insert(handover, 1, released)
            return handover
            """;

    static final RedisScript<List<Object>> LEAVE = mixedListScript(LEAVE_TEXT);

    /** {@link #LEAVE} announcing with {@code SPUBLISH} on sharded channels. */
    static final RedisScript<List<Object>> LEAVE_SHARDED = mixedListScript(ReleaseChannels.shardedText(LEAVE_TEXT));

    private FairScripts() {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static RedisScript<List<Long>> listScript(String text) {
        return new DefaultRedisScript(text, List.class);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static RedisScript<List<Object>> mixedListScript(String text) {
        return new DefaultRedisScript(text, List.class);
    }
}
