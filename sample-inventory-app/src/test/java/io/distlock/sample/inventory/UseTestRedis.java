package io.distlock.sample.inventory;

import io.distlock.test.redis.TestRedis;
import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Points the application at the JVM's shared test Redis through {@code spring.data.redis.url}, as a user points it at
 * theirs; the embedded default then stays off.
 */
public class UseTestRedis implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.getEnvironment()
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "test-redis",
                        Map.of("spring.data.redis.url", TestRedis.shared().uri())));
    }
}
