package io.distlock.autoconfigure.actuate;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.test.redis.TestRedis;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Application contexts with Spring Boot's Redis and endpoint support, distlock's lock and its Actuator parts, with the
 * {@code distlock} endpoint exposed over the web as an application exposes it.
 */
final class ActuatorContexts {

    private ActuatorContexts() {}

    /** Without a Redis address: the test names one. */
    static ApplicationContextRunner runner() {
        return withoutRedis().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class));
    }

    /** Without Spring Boot's Redis auto-configuration, so without a lock unless the test defines one. */
    static ApplicationContextRunner withoutRedis() {
        return new ApplicationContextRunner()
                // Converts property values as SpringApplication does, so "access=none" reads as users write it.
                .withInitializer(
                        context -> context.getEnvironment().setConversionService(new ApplicationConversionService()))
                .withConfiguration(AutoConfigurations.of(
                        DistributedLockAutoConfiguration.class,
                        EndpointAutoConfiguration.class,
                        DistributedLockEndpointAutoConfiguration.class,
                        DistributedLockHealthContributorAutoConfiguration.class))
                .withPropertyValues(
                        "management.endpoints.web.exposure.include=distlock", "distlock.shutdown.grace-period=0s");
    }

    /** On the JVM-wide test Redis. */
    static ApplicationContextRunner onSharedRedis() {
        return runner().withPropertyValues(
                        "spring.data.redis.port=" + TestRedis.shared().port());
    }
}
