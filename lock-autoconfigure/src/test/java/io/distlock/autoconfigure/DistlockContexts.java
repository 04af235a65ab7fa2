package io.distlock.autoconfigure;

import io.distlock.test.redis.TestRedis;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Application contexts with the auto-configuration the starter brings: Spring Boot's Redis and AOP, and distlock's. */
public final class DistlockContexts {

    private DistlockContexts() {}

    /** Without a Redis address: the test names one. */
    public static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class,
                        AopAutoConfiguration.class,
                        DistributedLockAutoConfiguration.class,
                        DistributedLockAnnotationAutoConfiguration.class));
    }

    /** On the JVM-wide test Redis. */
    public static ApplicationContextRunner onSharedRedis() {
        return runner().withPropertyValues(
                        "spring.data.redis.port=" + TestRedis.shared().port());
    }
}
