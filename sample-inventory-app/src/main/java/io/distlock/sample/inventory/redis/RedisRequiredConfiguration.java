package io.distlock.sample.inventory.redis;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * Without the {@code demo} profile, no Redis configured fails start-up: Spring Boot would otherwise connect to
 * localhost:6379, and an instance that started a Redis of its own would exclude no other instance.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoRedisConfiguredCondition.class)
@Profile("!demo")
class RedisRequiredConfiguration {

    @Bean
    DataRedisConnectionDetails unconfiguredRedis() {
        throw new IllegalStateException("No Redis is configured: set spring.data.redis.url (SPRING_DATA_REDIS_URL),"
                + " spring.data.redis.host and port, or spring.data.redis.cluster.nodes or sentinel.nodes, to the Redis"
                + " that every instance shares; or, to try the sample alone, run it with"
                + " --spring.profiles.active=demo, which starts an embedded Redis of this instance's own");
    }
}
