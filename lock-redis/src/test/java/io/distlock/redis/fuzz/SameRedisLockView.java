package io.distlock.redis.fuzz;

import io.distlock.test.fuzz.LockView;
import java.util.List;

/**
 * The locks live on the checker's own Redis: its scripts read the lock key in the same atomic step as they judge,
 * whether an exclusive holder's string or readers' hash (see {@link io.distlock.redis.ReadLock}).
 */
final class SameRedisLockView implements LockView {

    @Override
    public String prelude() {
        return """
                -- The lock key comes last among the keys. While readers hold it, it is a hash of when each reader's
                -- lease ends in Redis's time: a reader is the holder while its own lease runs, and its ttl is what is
                -- left of that lease, not the key's PTTL, which is the last reader's. To anyone else the hash is
                -- another owner's (''). ttl_at is Redis's time just before the ttl was read: a claim ends at
                -- ttl_at + ttl - 2 whenever the script gets to set it, however long Redis took to get there.
                local clock = redis.call('time')
                local ttl_at = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
                local holder, ttl
                if redis.call('type', KEYS[#KEYS]).ok == 'hash' then
                  local ends = tonumber(redis.call('hget', KEYS[#KEYS], ARGV[1]) or '0')
                  if ends > ttl_at then
                    holder, ttl = ARGV[1], ends - ttl_at
                  else
                    holder, ttl = ends == 0 and '', -2
                  end
                else
                  holder = redis.call('get', KEYS[#KEYS])
                  ttl = redis.call('pttl', KEYS[#KEYS])
                end
                """;
    }

    @Override
    public List<String> keys(String lockKey) {
        return List.of(lockKey);
    }

    @Override
    public List<String> args(String lockKey) {
        return List.of();
    }
}
