package io.distlock.autoconfigure;

import io.distlock.DistributedLock;
import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.annotation.DistributedLockAdvisor;
import io.distlock.annotation.DistributedLockDefinitionException;
import io.distlock.annotation.LockedMethods;
import io.distlock.autoconfigure.internal.DistributedLockStartupException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
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
 * them, if that Lock lacks a lock {@link Kind} that some of them ask for, or if a bean with
 * annotated methods was created without distlock's proxy. With {@code distlock.enabled=false} it only warns, naming
 * the methods that run unlocked.
 */
final class LockedMethodsGuard implements BeanPostProcessor, SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(LockedMethodsGuard.class);
    private final ConfigurableListableBeanFactory beanFactory;
    private final Environment environment;
    private final boolean enabled;
    private final Set<String> created = new ConcurrentSkipListSet<>();
    /** The methods that ask for each kind beside the exclusive lock. */
    private final Map<Kind<?>, Set<String>> kinds = new ConcurrentHashMap<>();

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
        checkKinds();
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
            if (annotation != null) {
                LockedMethods.kindAskedFor(annotation)
                        .ifPresent(kind -> kinds.computeIfAbsent(kind, asked -> new ConcurrentSkipListSet<>())
                                .add(DistributedLockDefinitionException.describe(method)));
            }
        }
    }

    /** Fails start-up if the single Lock lacks a kind that annotated methods ask for, naming the kind and the lock. */
    private void checkKinds() {
        Lock lock = beanFactory.getBeanProvider(Lock.class).getIfUnique();
        if (lock == null) {
            return;
        }
        for (Map.Entry<Kind<?>, Set<String>> asked : kinds.entrySet()) {
            Kind<?> kind = asked.getKey();
            if (lock.kind(kind).isEmpty()) {
                throw new DistributedLockStartupException(
                        "@DistributedLock(" + kind.annotationAttributes() + ") methods cannot run, because the Lock"
                                + " bean " + lock + " has no " + kind
                                + ". Methods: " + String.join(", ", asked.getValue()) + ".",
                        "Remove " + kind.annotationAttributes() + " from them, or choose a backend that offers the "
                                + kind + " (docs/reference/lock-kinds.md lists which do).");
            }
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
