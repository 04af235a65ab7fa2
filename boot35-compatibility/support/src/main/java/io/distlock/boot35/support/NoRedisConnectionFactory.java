package io.distlock.boot35.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * The check that an application whose only distlock starter is not the Redis one has no Redis connection factory: on
 * Spring Boot 3.5 it would have one as soon as Spring Data Redis reached its class path, and distlock would then find
 * two backends. The check goes by class name, so that it compiles without Spring Data Redis.
 */
public final class NoRedisConnectionFactory {

    private static final String REDIS_CONNECTION_FACTORY =
            "org.springframework.data.redis.connection.RedisConnectionFactory";

    private NoRedisConnectionFactory() {}

    /**
     * Asserts that {@code context} has no {@code RedisConnectionFactory} bean, or no such class at all.
     *
     * @param context the started application
     * @param starter the starter the application has, for the assertion's message
     */
    public static void assertNoneIn(AssertableApplicationContext context, String starter) {
        ClassLoader classLoader = context.getClassLoader();
        if (ClassUtils.isPresent(REDIS_CONNECTION_FACTORY, classLoader)) {
            Class<?> type = ClassUtils.resolveClassName(REDIS_CONNECTION_FACTORY, classLoader);
            assertThat(context.getBeanNamesForType(type))
                    .as("RedisConnectionFactory beans of an application with only the %s", starter)
                    .isEmpty();
        }
    }
}
