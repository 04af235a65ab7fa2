package io.distlock.sample.inventory.redis;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;

/**
 * Matches when none of the properties that point Spring Boot at a Redis is set, from any source (for example {@code
 * SPRING_DATA_REDIS_URL} in the environment or {@code --spring.data.redis.host} on the command line).
 */
class NoRedisConfiguredCondition extends NoneNestedConditions {

    NoRedisConfiguredCondition() {
        super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnProperty("spring.data.redis.url")
    static class Url {}

    @ConditionalOnProperty("spring.data.redis.host")
    static class Host {}

    @ConditionalOnProperty("spring.data.redis.port")
    static class Port {}

    @ConditionalOnProperty("spring.data.redis.sentinel.nodes")
    static class Sentinel {}

    @ConditionalOnProperty("spring.data.redis.cluster.nodes")
    static class Cluster {}

    @ConditionalOnProperty("spring.data.redis.masterreplica.nodes")
    static class MasterReplica {}
}
