package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/** What a {@link RedisLockBuilder} checks of the template it is given. */
final class TemplateCheck {

    private static final String KEY_PROBE = "distlock:{probe}";

    private TemplateCheck() {}

    /**
     * Checks that distlock can run its scripts through the template: on Lettuce, whose reactive API lets a waiting
     * caller stop waiting for Redis at its deadline, and with keys written as plain text. Its transaction support does
     * not matter, since distlock never sends a command through it on a caller's thread, where a transaction could be.
     */
    static LettuceConnectionFactory lettuceFactoryOf(RedisTemplate<String, ?> template) {
        if (template == null) {
            throw new IllegalArgumentException("template must not be null; pass a StringRedisTemplate");
        }
        RedisConnectionFactory factory = template.getConnectionFactory();
        if (!(factory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalArgumentException(
                    "distlock needs a RedisTemplate on a LettuceConnectionFactory (Lettuce is"
                            + " Spring Boot's default Redis client), but the template's connection factory is "
                            + (factory == null ? "not set" : factory.getClass().getName())
                            + ". distlock runs its scripts through Spring Data Redis's reactive API, so that a caller whose"
                            + " wait ends stops waiting for Redis at once and a lock granted too late is released again;"
                            + " Spring Data Redis offers that API only on Lettuce. Use Lettuce (remove"
                            + " spring.data.redis.client-type=jedis, or build a LettuceConnectionFactory)");
        }
        RedisSerializer<?> keySerializer = template.getKeySerializer();
        if (!writesPlainText(keySerializer)) {
            throw new IllegalArgumentException("distlock needs a RedisTemplate whose keys are plain UTF-8 text, such as"
                    + " a StringRedisTemplate, but the template's key serializer is "
                    + (keySerializer == null
                            ? "not set"
                            : keySerializer.getClass().getName()));
        }
        return lettuce;
    }

    @SuppressWarnings("unchecked")
    private static boolean writesPlainText(@Nullable RedisSerializer<?> serializer) {
        if (serializer == null) {
            return false;
        }
        try {
            byte[] written = ((RedisSerializer<Object>) serializer).serialize(KEY_PROBE);
            return Arrays.equals(written, KEY_PROBE.getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException notForText) {
            return false;
        }
    }
}
