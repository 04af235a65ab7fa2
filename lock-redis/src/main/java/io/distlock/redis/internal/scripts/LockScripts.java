package io.distlock.redis.internal.scripts;

import java.util.List;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts behind every lock operation, each built once and run by its SHA.
 *
 * <p>A lock is a string key whose value is the owner token followed by who holds it and since when ({@link
 * HolderFunctions}), with the lease as its PTTL. Every script compares the owner token before acting, so a holder
 * whose lease ran out can never touch the next owner's key. Tokens of one kind all have the same length and never
 * contain {@code +}, {@code *} or {@code #}, so a script finds the owner as the value's prefix.
 *
 * <p>A waiter that fails to acquire leaves a mark after the token, so that a release announces itself only when
 * another process waits: {@code +<instance id>} while waiters of one lock instance are known, {@code *} once waiters of
 * several are. An instance tells its own waiters directly and so never publishes for its own mark.
 *
 * <p>While readers hold a key ({@link io.distlock.redis.ReadLock}, which takes a reader's share with {@link
 * ReadScripts#ACQUIRE}), the lock key is a hash instead: each reader's owner token mapped to the end of its lease in
 * Redis's time (ms), and the key expires when the last lease would end, so an exclusive acquisition's {@code SET NX}
 * refuses for exactly as long as readers hold it, and no other key is involved. A reader's end is the ms of {@code
 * TIME}, rounded down, plus the lease plus 1, and the lease is over once {@code TIME} reaches it: like Redis's own
 * expiry, which deletes a key only once its ms time is past the end, this never ends a lease before the caller's own
 * count, which starts when it sent the script. A waiting writer sets the field {@code ~w} to when the readers' leases
 * would end; readers that yield to writers stay out until then. Every token-comparing script checks the key's type
 * first: to an exclusive holder a hash means another owner, and to a reader a string does. A semaphore's permits
 * key has the same form ({@link io.distlock.redis.internal.semaphore.SemaphoreScripts}), with a field {@code
 * ~p<instance id>} for each instance whose waiters wait for a permit: a permit's release announces itself while
 * another instance's mark is live, since a permit coming back frees a place even while other permits are held.
 *
 * <p>A key whose value starts with {@code ~} holds no lock: a release reserved it for the waiters of other instances
 * than the one named after the {@code ~}, for a few milliseconds. Tokens never contain {@code ~}, so no token-comparing
 * script mistakes it for a holder's.
 */
public final class LockScripts {

    /** The text of {@link #ACQUIRE}, which {@link #ACQUIRE_NAMING_HOLDER} runs too. */
    private static final String ACQUIRE_TEXT = HolderFunctions.LUA + FenceFunctions.LUA + """
            local held = ARGV[1] .. heldBy(ARGV[5])
            if redis.call('set', KEYS[1], held, 'nx', 'px', ARGV[2]) then
              return nextFences(KEYS[2], tonumber(ARGV[6]))
            end
            if redis.call('type', KEYS[1]).ok == 'hash' then
              local ttl = redis.call('pttl', KEYS[1])
              if ARGV[3] ~= '' and ttl > 0 then
                local clock = redis.call('time')
              local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
                redis.call('hset', KEYS[1], '~w', now + ttl)
              end
              return -1 - ttl
            end
            local holder = redis.call('get', KEYS[1])
            if holder and string.sub(holder, 1, 1) == '~' then
              if string.sub(holder, 2) ~= ARGV[4] then
                redis.call('set', KEYS[1], held, 'px', ARGV[2])
                return nextFences(KEYS[2], tonumber(ARGV[6]))
              end
            elseif holder and ARGV[3] ~= '' then
              local owner, mark = splitMark(holder)
              local wanted = mark
              if mark == '' then
                wanted = '+' .. ARGV[3]
              elseif mark ~= '+' .. ARGV[3] then
                wanted = '*'
              end
              if wanted ~= mark then
                redis.call('set', KEYS[1], owner .. wanted, 'xx', 'keepttl')
              end
            end
            return -1 - redis.call('pttl', KEYS[1])
            """;

    /**
     * KEYS: lock, fencing counter. ARGV: token, lease ms, the instance id if the caller will wait (else empty), the
     * caller's instance id, the caller's instance name, how many fencing tokens to reserve (1, or a run's block, see
     * {@link FenceFunctions}), the counter's keep time. Takes the key if it is free (writing the token, the time and
     * the name, see {@link HolderFunctions}), or reserved by another instance for its waiters' turn ({@code
     * ~<instance id>}, see {@link #RELEASE}). Returns the new fencing token (&gt; 0; the first of those reserved) on success; otherwise -1 - the
     * holder's PTTL (so a holder without expiry gives 0). Readers holding the key count as the holder, and a caller
     * that will wait marks them so that new readers yield.
     */
    public static final RedisScript<Long> ACQUIRE = script(ACQUIRE_TEXT);

    /**
     * KEYS and ARGV as for {@link #ACQUIRE}, which it runs, for a Redlock node. Returns {@code {fencing token}} on
     * success; otherwise {@code {-1 - the holder's PTTL, digest}}, where the digest is the SHA-1 (lowercase hex) of the
     * holder's owner token, or empty when no single token holds the key (readers, or a reservation for other
     * instances' waiters). The digest tells a Redlock attempt which contender holds each node after a split vote
     * ({@link io.distlock.redis.internal.redlock.GrantVote}); it gives away nothing of the token, which stays
     * unguessable.
     */
    public static final RedisScript<List<Object>> ACQUIRE_NAMING_HOLDER =
            listScript("local function acquire()\n" + ACQUIRE_TEXT + """
            end
            local answer = acquire()
            if answer > 0 then
              return {answer}
            end
            local digest = ''
            if redis.call('type', KEYS[1]).ok == 'string' then
              local holder = redis.call('get', KEYS[1])
              if string.sub(holder, 1, 1) ~= '~' then
                digest = redis.sha1hex(string.sub(holder, 1, #ARGV[1]))
              end
            end
            return {answer, digest}
            """);

    /**
     * KEYS: lock. ARGV: token, release channel, releasing instance's id, reservation ms (0 for none), release id (empty
     * for none). Releases the key if the token owns it and, if another instance waits, publishes the instance id, the
     * release id followed by {@code |} if there is one, and the key on the channel: a Redlock releases on every node
     * under one release id, so that its waiters wake once per release, not once per node. With a reservation, and
     * another instance waiting, the key is not deleted but reserved for the other instances' waiters ({@code
     * ~<releasing instance id>}) for that long: any other instance may take it, the releasing one may not. The last
     * reader to leave a key that a writer waits for ({@code ~w}) reserves it for writers for 20 ms ({@code ~}): every
     * instance's writers may take it, no reader may, so that the waiting writer, not a reader woken by the same
     * release, comes next. Returns 1 if deleted (or so reserved for writers), 2 if reserved, 3 if a reader left and
     * other readers still hold the key, 0 if the key was gone, -1 if another owner holds it.
     */
    private static final String RELEASE_TEXT = HolderFunctions.LUA + """
            if redis.call('type', KEYS[1]).ok == 'hash' then
              local clock = redis.call('time')
              local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
              local ends = tonumber(redis.call('hget', KEYS[1], ARGV[1]) or '0')
              if ends == 0 then
                return -1
              end
              redis.call('hdel', KEYS[1], ARGV[1])
              local fields = redis.call('hgetall', KEYS[1])
              local live = false
              local others = false
              local writer = false
              for i = 1, #fields, 2 do
                if tonumber(fields[i + 1]) <= now then
                  redis.call('hdel', KEYS[1], fields[i])
                elseif string.sub(fields[i], 1, 1) ~= '~' then
                  live = true
                elseif fields[i] == '~w' then
                  writer = true
                elseif string.sub(fields[i], 1, 2) == '~p' and fields[i] ~= '~p' .. ARGV[3] then
                  others = true
                end
              end
              if not live then
                if writer then
                  redis.call('set', KEYS[1], '~', 'px', 20)
                else
                  redis.call('del', KEYS[1])
                end
                redis.call('publish', ARGV[2], ARGV[3] .. KEYS[1])
              elseif others then
                redis.call('publish', ARGV[2], ARGV[3] .. KEYS[1])
              end
              if ends <= now then
                return 0
              end
              return live and 3 or 1
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return 0
            end
            if string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return -1
            end
            local _, mark = splitMark(holder)
            if mark == '' or mark == '+' .. ARGV[3] then
              redis.call('del', KEYS[1])
              return 1
            end
            local result = 1
            if tonumber(ARGV[4]) > 0 then
              redis.call('set', KEYS[1], '~' .. ARGV[3], 'px', ARGV[4])
              result = 2
            else
              redis.call('del', KEYS[1])
            end
            local release = ''
            if ARGV[5] and ARGV[5] ~= '' then
              release = ARGV[5] .. '|'
            end
            redis.call('publish', ARGV[2], ARGV[3] .. release .. KEYS[1])
            return result
            """;

    public static final RedisScript<Long> RELEASE = script(RELEASE_TEXT);

    /** {@link #RELEASE} announcing with {@code SPUBLISH} on a sharded release channel. */
    public static final RedisScript<Long> RELEASE_SHARDED = script(ReleaseChannels.shardedText(RELEASE_TEXT));

    /**
     * KEYS: lock, fencing counter. ARGV: releasing token, receiving token, receiver's lease ms, releasing instance's
     * id, its instance name, how many fencing tokens to reserve, the counter's keep time. Hands a held lock straight to a waiter of the same instance, so the key never looks free
     * in between; keeps the mark of other instances' waiters and drops the instance's own. Returns the receiver's
     * fencing token times two, plus one if other instances wait; 0 if the key was gone, -1 if another owner holds it.
     */
    public static final RedisScript<Long> HAND_OVER = script(HolderFunctions.LUA + FenceFunctions.LUA + """
            if redis.call('type', KEYS[1]).ok == 'hash' then
              return -1
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return 0
            end
            if string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return -1
            end
            local _, mark = splitMark(holder)
            local held = ARGV[2] .. heldBy(ARGV[5])
            if mark ~= '' and mark ~= '+' .. ARGV[4] then
              redis.call('set', KEYS[1], held .. mark, 'px', ARGV[3])
              return nextFences(KEYS[2], tonumber(ARGV[6])) * 2 + 1
            end
            redis.call('set', KEYS[1], held, 'px', ARGV[3])
            return nextFences(KEYS[2], tonumber(ARGV[6])) * 2
            """);

    /**
     * KEYS: lock. ARGV: token, lease ms. Sets the remaining lease if the token owns the key. Returns 1, 0 if gone, -1
     * if another owner holds it.
     */
    public static final RedisScript<Long> EXTEND = script("""
            if redis.call('type', KEYS[1]).ok == 'hash' then
              local clock = redis.call('time')
              local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
              local ends = tonumber(redis.call('hget', KEYS[1], ARGV[1]) or '0')
              if ends <= now then
                return ends == 0 and -1 or 0
              end
              redis.call('hset', KEYS[1], ARGV[1], now + tonumber(ARGV[2]) + 1)
              if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
                redis.call('pexpire', KEYS[1], ARGV[2])
              end
              return 1
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return 0
            end
            if string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return -1
            end
            redis.call('pexpire', KEYS[1], ARGV[2])
            return 1
            """);

    /**
     * KEYS: lock. ARGV: token, lease ms. For a nested acquisition: confirms the token still owns the key and makes its
     * remaining lease at least the given one. Returns 1, 0 if gone, -1 if another owner holds it.
     */
    public static final RedisScript<Long> CONFIRM = script("""
            if redis.call('type', KEYS[1]).ok == 'hash' then
              local clock = redis.call('time')
              local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
              local ends = tonumber(redis.call('hget', KEYS[1], ARGV[1]) or '0')
              if ends <= now then
                return ends == 0 and -1 or 0
              end
              if ends < now + tonumber(ARGV[2]) + 1 then
                redis.call('hset', KEYS[1], ARGV[1], now + tonumber(ARGV[2]) + 1)
              end
              if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
                redis.call('pexpire', KEYS[1], ARGV[2])
              end
              return 1
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return 0
            end
            if string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return -1
            end
            if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
              redis.call('pexpire', KEYS[1], ARGV[2])
            end
            return 1
            """);

    /**
     * KEYS: lock. ARGV: token. Returns the key's PTTL (at least 0) if the token owns it, -1 if another owner holds it,
     * -2 if the key is gone.
     */
    public static final RedisScript<Long> STATUS = script("""
            if redis.call('type', KEYS[1]).ok == 'hash' then
              local clock = redis.call('time')
              local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
              local ends = tonumber(redis.call('hget', KEYS[1], ARGV[1]) or '0')
              if ends == 0 then
                return -1
              end
              if ends <= now then
                return -2
              end
              return ends - now
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return -2
            end
            if string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return -1
            end
            local ttl = redis.call('pttl', KEYS[1])
            if ttl < 0 then
              return 0
            end
            return ttl
            """);

    /**
     * KEYS: lock, fencing counter. ARGV: token, fencing token. For a Redlock grant: if the token still owns the key,
     * raises the key's fencing counter to at least the given token, so that every later grant on this node counts
     * past it. Returns 1, 0 if gone, -1 if another owner holds it.
     */
    public static final RedisScript<Long> RAISE_FENCE = script("""
            if redis.call('type', KEYS[1]).ok == 'hash' then
              return -1
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return 0
            end
            if string.sub(holder, 1, #ARGV[1]) ~= ARGV[1] then
              return -1
            end
            local counter = tonumber(redis.call('get', KEYS[2]) or '0')
            if counter < tonumber(ARGV[2]) then
              redis.call('set', KEYS[2], ARGV[2])
            end
            return 1
            """);

    /**
     * KEYS: locks of one cluster slot. ARGV: lease ms, then one token per key. Makes the remaining lease of each key
     * its token still owns at least the given lease (never shorter: a nested fixed lease may ask for more). Returns one
     * entry per key: 1 renewed, 0 gone, -1 owned by another.
     */
    public static final RedisScript<List<Long>> RENEW = listScript("""
            local result = {}
            local lease = tonumber(ARGV[1])
            local now = nil
            for i, key in ipairs(KEYS) do
              local token = ARGV[i + 1]
              local holder = nil
              if redis.call('type', key).ok == 'hash' then
                if not now then
                  local clock = redis.call('time')
                  now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
                end
                local ends = tonumber(redis.call('hget', key, token) or '0')
                if ends == 0 then
                  holder = ''
                elseif ends > now then
                  if ends < now + lease + 1 then
                    redis.call('hset', key, token, now + lease + 1)
                  end
                  holder = token
                end
              else
                holder = redis.call('get', key)
              end
              if not holder then
                result[i] = 0
              elseif string.sub(holder, 1, #token) == token then
                if redis.call('pttl', key) < lease then
                  redis.call('pexpire', key, lease)
                end
                result[i] = 1
              else
                result[i] = -1
              end
            end
            return result
            """);

    private LockScripts() {}

    private static RedisScript<Long> script(String text) {
        return new DefaultRedisScript<>(text, Long.class);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> RedisScript<List<T>> listScript(String text) {
        return new DefaultRedisScript(text, List.class);
    }
}
