package io.distlock.autoconfigure;

import io.distlock.DistributedLock;
import io.distlock.Lock;
import io.distlock.annotation.DistributedLockAdvisor;
import io.distlock.annotation.DistributedLockDefinitionException;
import io.distlock.annotation.LockedMethods;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Makes sure no {@code @DistributedLock} method runs without its lock unnoticed. Once all singletons exist, it collects
 * the annotated methods of every bean: those created so far, lazy ones by their declared type, and those created
 * before post-processors ran. Start-up then fails, with the reason and the fix, if there is no single {@link Lock} for
 * them, if that Lock lacks the fair view, read side or path locks that some of them ask for, or if a bean with
 * annotated methods was created without distlock's proxy. With {@code distlock.enabled=false} it only warns, naming
 * the methods that run unlocked.
 */
final class LockedMethodsGuard implements BeanPostProcessor, SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(LockedMethodsGuard.class);
    private final ConfigurableListableBeanFactory beanFactory;
    private final Environment environment;
    private final boolean enabled;
    private final Set<String> created = new ConcurrentSkipListSet<>();
    private final Set<String> fair = new ConcurrentSkipListSet<>();
    private final Set<String> read = new ConcurrentSkipListSet<>();
    private final Set<String> tree = new ConcurrentSkipListSet<>();

    LockedMethodsGuard(ConfigurableListableBeanFactory beanFactory, Environment environment, boolean enabled) {
        this.beanFactory = beanFactory;
        this.environment = environment;
        this.enabled = enabled;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        // Also sees what the bean definitions do not tell: prototypes and the objects that factory beans make.
        List<Method> methods = LockedMethods.annotatedMethods(AopUtils.getTargetClass(bean));
        describeAll(methods, created);
        describeViews(methods);
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Set<String> annotated = new TreeSet<>(created);
        Set<String> unproxied = new TreeSet<>();
        for (String name : beanFactory.getBeanNamesForType(Object.class, true, false)) {
            inspect(name, annotated, unproxied);
        }
        if (annotated.isEmpty()) {
            return;
        }
        if (!enabled) {
            log.warn(
                    "distlock.enabled=false: these @DistributedLock methods run WITHOUT a lock: {}",
                    String.join(", ", annotated));
            return;
        }
        String lockProblem = lockProblem();
        if (lockProblem != null) {
            throw new DistributedLockStartupException(
                    "@DistributedLock methods cannot run, because " + lockProblem + ". Methods: "
                            + String.join(", ", annotated) + ".",
                    "To run them without a lock deliberately, set distlock.enabled=false.");
        }
        String fairProblem = fair.isEmpty() ? null : viewProblem("fair view", Lock::fair);
        if (fairProblem != null) {
            throw new DistributedLockStartupException(
                    "@DistributedLock(fair = true) methods cannot run, because " + fairProblem + ". Methods: "
                            + String.join(", ", fair) + ".",
                    "Remove fair = true from them, or give them a Lock with a fair view, such as a RedisLock (a"
                            + " Redlock has none).");
        }
        String readProblem = read.isEmpty() ? null : viewProblem("read view", Lock::reading);
        if (readProblem != null) {
            throw new DistributedLockStartupException(
                    "@DistributedLock(read = true) methods cannot run, because " + readProblem + ". Methods: "
                            + String.join(", ", read) + ".",
                    "Remove read = true from them, or give them a Lock with a read side, such as a RedisLock (a"
                            + " Redlock has none).");
        }
        // Any valid name will do: asking for a tree's path lock only checks the name, and reaches no store.
        String treeProblem = tree.isEmpty() ? null : viewProblem("path lock", lock -> lock.tree("distlock-check"));
        if (treeProblem != null) {
            throw new DistributedLockStartupException(
                    "@DistributedLock(tree = ..., path = ...) methods cannot run, because " + treeProblem
                            + ". Methods: " + String.join(", ", tree) + ".",
                    "Lock them by key instead, or give them a Lock with path locks, such as a RedisLock (a Redlock"
                            + " has none).");
        }
        if (!unproxied.isEmpty()) {
            throw new DistributedLockStartupException(
                    "@DistributedLock methods would run without their lock, because these beans were created before"
                            + " distlock's post-processors were registered and so were not proxied: "
                            + String.join("; ", unproxied) + ". A BeanPostProcessor, or a bean that one depends on,"
                            + " needed them early; Spring logs them as 'not eligible for getting processed by all"
                            + " BeanPostProcessors'.",
                    "Inject them there lazily (ObjectProvider or @Lazy).");
        }
    }

    private void inspect(String name, Set<String> annotated, Set<String> unproxied) {
        Object singleton = beanFactory.containsSingleton(name) ? beanFactory.getSingleton(name) : null;
        if (singleton != null && !(singleton instanceof FactoryBean<?>)) {
            List<Method> methods = LockedMethods.annotatedMethods(AopUtils.getTargetClass(singleton));
            describeAll(methods, annotated);
            describeViews(methods);
            if (enabled && !methods.isEmpty() && !proxiedByDistlock(singleton)) {
                Set<String> described = new TreeSet<>();
                describeAll(methods, described);
                unproxied.add("bean '" + name + "' (" + String.join(", ", described) + ")");
            }
            return;
        }
        Class<?> type = declaredType(name);
        if (type != null) {
            List<Method> methods = LockedMethods.annotatedMethods(ClassUtils.getUserClass(type));
            describeAll(methods, annotated);
            describeViews(methods);
        }
    }

    /** The type of a bean not created yet (lazy, or not a singleton), as far as it is known without creating it. */
    private @Nullable Class<?> declaredType(String name) {
        try {
            return beanFactory.getType(name, false);
        } catch (RuntimeException unknown) {
            // A type that can only be known by creating the bean is checked when the bean is created instead.
            return null;
        }
    }

    private static boolean proxiedByDistlock(Object bean) {
        return bean instanceof Advised proxy
                && Arrays.stream(proxy.getAdvisors()).anyMatch(DistributedLockAdvisor.class::isInstance);
    }

    private static void describeAll(List<Method> methods, Set<String> into) {
        methods.forEach(method -> into.add(DistributedLockDefinitionException.describe(method)));
    }

    private void describeViews(List<Method> methods) {
        for (Method method : methods) {
            DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
            if (annotation != null && annotation.fair()) {
                fair.add(DistributedLockDefinitionException.describe(method));
            }
            if (annotation != null && annotation.read()) {
                read.add(DistributedLockDefinitionException.describe(method));
            }
            if (annotation != null && !annotation.tree().isEmpty()) {
                tree.add(DistributedLockDefinitionException.describe(method));
            }
        }
    }

    /** Why the single Lock lacks what some methods ask for, such as its "fair view", or null if it has it. */
    private @Nullable String viewProblem(String view, Function<Lock, Lock> viewOf) {
        Lock lock = beanFactory.getBeanProvider(Lock.class).getIfUnique();
        if (lock == null) {
            return null;
        }
        try {
            viewOf.apply(lock);
            return null;
        } catch (UnsupportedOperationException e) {
            return "the Lock bean " + lock + " has no " + view + " (" + e.getMessage() + ")";
        }
    }

    /** Why annotated methods would not find a single Lock, or null if they do. */
    private @Nullable String lockProblem() {
        String[] locks = beanFactory.getBeanNamesForType(Lock.class);
        if (locks.length == 1 || (locks.length > 1 && uniqueLock() != null)) {
            return null;
        }
        if (locks.length == 0) {
            return "there is no Lock bean: " + whyNoLock();
        }
        return "there are " + locks.length + " Lock beans " + Arrays.toString(locks)
                + " and not exactly one of them is @Primary. Mark the one annotated methods should use @Primary";
    }

    private @Nullable Lock uniqueLock() {
        try {
            return beanFactory.getBeanProvider(Lock.class).getIfUnique();
        } catch (NoUniqueBeanDefinitionException severalPrimary) {
            return null;
        }
    }

    /** Why there is no Lock bean, in the words of the backend choice, which knows what each backend needs. */
    private String whyNoLock() {
        String defineOne = ". Otherwise define one: a bean of type io.distlock.Lock";
        if (beanFactory.getBeanNamesForType(LockBackendCheck.class, true, false).length == 0) {
            return "distlock's auto-configuration of the Lock bean (DistributedLockAutoConfiguration) did not run: it"
                    + " is excluded, or this context does not include it" + defineOne;
        }
        return LockBackends.of(beanFactory, environment, beanFactory.getBeanClassLoader())
                        .whyNoLock()
                + ". See \"Choosing a backend\" in distlock's documentation (docs/getting-started.md)" + defineOne;
    }
}
