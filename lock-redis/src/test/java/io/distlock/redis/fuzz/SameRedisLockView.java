package io.distlock.redis.fuzz;

import io.distlock.tck.fuzz.HolderRead;
import io.distlock.tck.fuzz.ReadBeforeLockView;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The locks live on one Redis, which the checker reads each lock key from, through a connection of its own, just
 * before each judgement: an exclusive holder's string, or the readers' hash of a read-write lock (see {@link
 * io.distlock.redis.ReadLock}), in one script with the lease's end by Redis's clock, the host's, as the checker's
 * witness's is.
 */
final class SameRedisLockView extends ReadBeforeLockView {

    /** The holder of a readers' hash to a section that is not among them: no owner token begins so. */
    private static final String READERS = "(readers)";

    /**
     * KEYS: the lock key. ARGV: the section's owner token. Returns the holder and its lease's end in ms since the epoch
     * (-1: none), or nothing if the key has no holder. While readers hold the key, it is a hash of when each reader's
     * lease ends in Redis's time: a reader is the holder while its own lease runs, and its end is its own, not the
     * key's PTTL, which is the last reader's; to anyone else the hash is another owner's ({@value #READERS}), whose lease
     * the witness never judges.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final RedisScript<List<String>> READ = new DefaultRedisScript("""
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            if redis.call('type', KEYS[1]).ok == 'hash' then
              local ends = redis.call('hget', KEYS[1], ARGV[1])
              if not ends then
                return {'%s', '-1'}
              end
              if tonumber(ends) > now then
                return {ARGV[1], ends}
              end
              return {}
            end
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return {}
            end
            local ttl = redis.call('pttl', KEYS[1])
            if ttl < 0 then
              return {holder, '-1'}
            end
            return {holder, string.format('%%.0f', now + ttl)}
            """.formatted(READERS), List.class);

    /** Longer than a busy machine keeps a command waiting, within the workers' grace after a run. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final StringRedisTemplate redis;

    /** Reads lock keys through {@code redis}. */
    SameRedisLockView(StringRedisTemplate redis) {
        super(PATIENCE);
        this.redis = redis;
    }

    @Override
    protected HolderRead readHolder(String lockKey, String ownerToken) {
        List<String> read = redis.execute(READ, List.of(lockKey), ownerToken);
        if (read == null || read.isEmpty()) {
            return HolderRead.none();
        }
        long leaseEnd = Long.parseLong(read.get(1));
        return leaseEnd < 0 ? HolderRead.forGood(read.get(0)) : HolderRead.until(read.get(0), leaseEnd);
    }
}
