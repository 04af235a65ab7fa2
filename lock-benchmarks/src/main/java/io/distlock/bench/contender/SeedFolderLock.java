package io.distlock.bench.contender;

import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The folder lock of the seed article "How to implement a distributed folder Lock in Redis" (its {@code getFileLock}
 * and {@code releaseFileLock} Lua scripts), reproduced as published, flaws included, because it is what the path
 * scenario measures distlock's path lock against.
 *
 * <p>Every lock of a project is a field of one hash (the lock's key, with the client's clock at acquisition as value)
 * beside a plain key holding the owner. To acquire, the script reads every field of the hash ({@code HKEYS}) and runs
 * {@code string.find} both ways on each: its cost grows with the number of locks held in the project. {@code
 * string.find} treats the held key as a Lua pattern and matches substrings, not path segments, and expiry is judged by
 * the requester's clock and lease; callers of this class use keys without pattern characters so that it locks what
 * the article means it to.
 */
final class SeedFolderLock {

    /** The article's {@code getFileLock.lua}, line for line: the linear scan is the point, so it stays. */
    private static final String GET_FILE_LOCK = """
            local requestKey = KEYS[1]
            local lockedKeys = KEYS[2]
            local requestValue = ARGV[1]
            local expireTime = ARGV[2]
            local nowTime = ARGV[3]
            if redis.call('get', requestKey) then
                return 0
            end
            local lockedHash = redis.call('hkeys', lockedKeys)
            for i = 1, #lockedHash do
                if string.find(requestKey, lockedHash[i]) or string.find(lockedHash[i], requestKey) then
                    local lockTime = redis.call('hget', lockedKeys, lockedHash[i])
                    if (nowTime - lockTime) >= expireTime * 1000 then
                        redis.call('hdel', lockedKeys, lockedHash[i])
                    else
                        return 0
                    end
                end
            end
            redis.call('set', requestKey, requestValue)
            redis.call('expire', requestKey, expireTime)
            redis.call('hset', lockedKeys, requestKey, nowTime)
            return 1
            """;

    /** The article's {@code releaseFileLock.lua}, line for line. */
    private static final String RELEASE_FILE_LOCK = """
            local requestKey = KEYS[1]
            local lockedKeys = KEYS[2]
            local requestValue = ARGV[1]
            if redis.call('get', requestKey) == requestValue then
                redis.call('hdel', lockedKeys, requestKey)
                return redis.call('del', requestKey)
            else
                return 0
            end
            """;

    /**
     * The scripts return integers, read here as {@code Long}. The article's Java declares a {@code String} result type,
     * on which Spring Data Redis over Lettuce fails at the integer reply ("Unknown redis exception"), and would then
     * compare the result with {@code 1L}, which no string equals.
     */
    private static final RedisScript<Long> GET = new DefaultRedisScript<>(GET_FILE_LOCK, Long.class);

    private static final RedisScript<Long> RELEASE = new DefaultRedisScript<>(RELEASE_FILE_LOCK, Long.class);

    private static final Long SUCCESS = 1L;

    private final StringRedisTemplate redis;

    SeedFolderLock(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * The article's {@code getFileLock}: one try, no waiting.
     *
     * @param lockedKeys the project's hash of held locks
     * @param lockKey the folder's key
     * @param requestValue the owner's token
     * @param lease the lease, which the script takes in whole seconds
     * @return true if the lock was taken
     */
    boolean getFileLock(String lockedKeys, String lockKey, String requestValue, Duration lease) {
        Long result = redis.execute(
                GET,
                List.of(lockKey, lockedKeys),
                requestValue,
                Long.toString(lease.toSeconds()),
                Long.toString(System.currentTimeMillis()));
        return SUCCESS.equals(result);
    }

    /**
     * The article's {@code releaseFileLock}.
     *
     * @return true if {@code requestValue} still owned the lock
     */
    boolean releaseFileLock(String lockedKeys, String lockKey, String requestValue) {
        return SUCCESS.equals(redis.execute(RELEASE, List.of(lockKey, lockedKeys), requestValue));
    }

    /**
     * Leaves Redis as {@link #getFileLock} would after taking each key, without running its scan: taking 10,000 locks
     * through the script would cost a quadratic number of {@code string.find} calls before the measurement starts.
     *
     * @param lockedKeys the project's hash of held locks
     * @param lockKeys the folders' keys, none of which conflicts with another or is held yet
     * @param requestValue the owner's token of all of them
     * @param lease the lease, in whole seconds as the script sets it
     */
    void holdWithoutScan(String lockedKeys, List<String> lockKeys, String requestValue, Duration lease) {
        String nowTime = Long.toString(System.currentTimeMillis());
        redis.executePipelined(new SessionCallback<Void>() {
            @Override
            @SuppressWarnings("unchecked")
            public <K, V> Void execute(RedisOperations<K, V> operations) {
                RedisOperations<String, String> pipeline = (RedisOperations<String, String>) operations;
                for (String lockKey : lockKeys) {
                    pipeline.opsForValue().set(lockKey, requestValue);
                    pipeline.expire(lockKey, Duration.ofSeconds(lease.toSeconds()));
                    pipeline.opsForHash().put(lockedKeys, lockKey, nowTime);
                }
                return null;
            }
        });
    }
}
