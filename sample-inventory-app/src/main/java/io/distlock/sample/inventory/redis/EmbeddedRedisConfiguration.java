package io.distlock.sample.inventory.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The demo's default: with the {@code demo} profile and no Redis configured, starts one and hands it to Spring Boot as
 * the connection details, which take the place of the {@code spring.data.redis.*} properties. It stops with the
 * application context. It belongs to this one instance, so instances that start their own never exclude each other:
 * without the profile, {@link RedisRequiredConfiguration} fails start-up instead.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoRedisConfiguredCondition.class)
@Profile("demo")
class EmbeddedRedisConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedRedis embeddedRedis() {
        EmbeddedRedis redis = EmbeddedRedis.start();
        log.info(
                "No Redis configured (spring.data.redis.url/host/port) and the demo profile is active: started an"
                        + " embedded redis-server at {}, of this instance alone. It stops with this application and"
                        + " keeps nothing; set SPRING_DATA_REDIS_URL to use your own.",
                redis.uri());
        return redis;
    }

    @Bean
    DataRedisConnectionDetails embeddedRedisConnectionDetails(EmbeddedRedis redis) {
        return new DataRedisConnectionDetails() {
            @Override
            public Standalone getStandalone() {
                return Standalone.of(redis.host(), redis.port());
            }
        };
    }
}
