package io.distlock.autoconfigure.redis;

import java.util.List;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Chooses the template through which the auto-configured lock talks to Redis.
 *
 * <p>The application's own {@link StringRedisTemplate} is shared only when sharing it is unambiguous and safe. With
 * transaction support on, a script sent through it inside {@code @Transactional} work is queued in {@code MULTI} and
 * answers {@code null} instead of the script's result. Among several templates, which one is meant for plain commands
 * is the application's knowledge: a {@code @Primary} one only says which one injection by type gets. A template on
 * another connection factory than the one the release subscription listens on would announce releases to a Redis where
 * no waiter hears them. A generic {@code RedisTemplate}, such as Spring Boot's {@code redisTemplate}, is never looked
 * at: its JDK serialization does not write keys as plain strings.
 *
 * <p>In every other case the lock gets a {@link StringRedisTemplate} of its own on the application's connection
 * factory. It is not registered as a bean, since a second {@link StringRedisTemplate} bean would break every injection
 * of one by type.
 */
final class LockTemplates {

    private LockTemplates() {}

    static StringRedisTemplate choose(
            ObjectProvider<StringRedisTemplate> applicationTemplates, RedisConnectionFactory connectionFactory) {
        List<StringRedisTemplate> templates = applicationTemplates.stream().toList();
        if (templates.size() == 1) {
            StringRedisTemplate template = templates.get(0);
            if (template.getConnectionFactory() == connectionFactory && !mayJoinTransactions(template)) {
                return template;
            }
        }
        return new StringRedisTemplate(connectionFactory);
    }

    /**
     * Whether the template takes part in Spring-managed transactions. {@link RedisTemplate} has a setter for that but
     * no getter, so its field is read. The answer is yes where the field cannot be read, or where it is a proxy's
     * rather than the template's own, since the lock's own template is safe in every case.
     */
    private static boolean mayJoinTransactions(StringRedisTemplate template) {
        if (AopUtils.isAopProxy(template)) {
            return true;
        }
        try {
            return !Boolean.FALSE.equals(
                    new DirectFieldAccessor(template).getPropertyValue("enableTransactionSupport"));
        } catch (BeansException unreadable) {
            return true;
        }
    }
}
