package io.distlock.autoconfigure;

import io.distlock.Lock;
import io.distlock.annotation.DistributedLockDefinitionException;
import io.distlock.annotation.LockedMethods;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.util.ClassUtils;

/**
 * Makes sure no {@code @DistributedLock} method runs without its lock unnoticed. It notes every bean with annotated
 * methods as it is created; once all singletons exist, start-up fails if there is no single {@link Lock} for them, with
 * the reason and the fix. With {@code distlock.enabled=false} it only warns, naming the methods that run unlocked.
 */
final class LockedMethodsGuard implements BeanPostProcessor, SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(LockedMethodsGuard.class);
    private static final String CONNECTION_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";

    private final ListableBeanFactory beanFactory;
    private final boolean enabled;
    private final Set<String> annotated = new TreeSet<>();

    LockedMethodsGuard(ListableBeanFactory beanFactory, boolean enabled) {
        this.beanFactory = beanFactory;
        this.enabled = enabled;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        for (Method method : LockedMethods.annotatedMethods(AopUtils.getTargetClass(bean))) {
            annotated.add(DistributedLockDefinitionException.describe(method));
        }
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (annotated.isEmpty()) {
            return;
        }
        if (!enabled) {
            log.warn(
                    "distlock.enabled=false: these @DistributedLock methods run WITHOUT a lock: {}",
                    String.join(", ", annotated));
            return;
        }
        String[] locks = beanFactory.getBeanNamesForType(Lock.class);
        if (locks.length == 1 || beanFactory.getBeanProvider(Lock.class).getIfUnique() != null) {
            return;
        }
        String problem = locks.length == 0
                ? "there is no Lock bean: " + whyNoLock()
                : "there are " + locks.length + " Lock beans " + Arrays.toString(locks) + " and none is @Primary. "
                        + "Mark the one annotated methods should use @Primary";
        throw new IllegalStateException("@DistributedLock methods cannot run, because " + problem
                + ". Methods: " + String.join(", ", annotated)
                + ". To run them without a lock deliberately, set distlock.enabled=false.");
    }

    private String whyNoLock() {
        String defineOne = "define one (for example @Bean Lock lock(RedisConnectionFactory factory) { return "
                + "RedisLock.builder(factory).build(); })";
        ClassLoader classLoader = getClass().getClassLoader();
        if (!ClassUtils.isPresent(CONNECTION_FACTORY, classLoader)) {
            return "Spring Data Redis is not on the class path. Add spring-boot-starter-data-redis, or " + defineOne;
        }
        if (!ClassUtils.isPresent(
                        "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory", classLoader)
                || !ClassUtils.isPresent("io.lettuce.core.RedisClient", classLoader)) {
            return "distlock needs the Lettuce client, which is not on the class path. Add io.lettuce:lettuce-core";
        }
        String[] factories =
                beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(CONNECTION_FACTORY, classLoader));
        if (factories.length == 0) {
            return "distlock's auto-configuration found no RedisConnectionFactory bean (is Spring Boot's Redis "
                    + "auto-configuration excluded, or is this a test slice without it?). Configure Redis, or "
                    + defineOne;
        }
        return "distlock's auto-configuration backed off: when it ran, the RedisConnectionFactory "
                + Arrays.toString(factories) + " was not yet defined (it is defined by a configuration processed "
                + "later, or this Spring Boot version's Redis auto-configuration is not the one distlock orders "
                + "itself after). Then " + defineOne;
    }
}
