package io.distlock.bench.contender;

import java.time.Duration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Not a lock: one {@code SET} to "acquire" and one {@code DEL} to "release", on the same kind of client as distlock.
 * It is the floor that any lock needing two round trips per use is measured against.
 */
final class RoundTripBaseline implements Contender {

    private static final String PREFIX = "bench-baseline:";

    private final LettuceConnectionFactory connectionFactory;
    private final StringRedisTemplate redis;

    RoundTripBaseline(RedisNodes redis) {
        this.connectionFactory = LettuceFactories.start(redis);
        this.redis = new StringRedisTemplate(connectionFactory);
    }

    @Override
    public Release tryAcquire(String key, Duration lease, Duration wait) {
        String redisKey = PREFIX + key;
        redis.opsForValue().set(redisKey, "1", lease);
        return () -> redis.delete(redisKey);
    }

    @Override
    public void close() {
        LettuceFactories.destroy(connectionFactory);
    }
}
