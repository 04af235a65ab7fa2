package io.distlock.annotation;

import io.distlock.DistributedLock;
import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockNotAcquiredException;
import io.distlock.OnLockLost;
import io.distlock.Semaphores;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.MethodClassKey;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.util.ClassUtils;
import org.springframework.util.ConcurrentReferenceHashMap;
import org.springframework.util.ReflectionUtils;

/**
 * Finds, checks and remembers the {@code @DistributedLock} methods of bean classes. Checking happens once per class,
 * when its first bean is created; a problem is a {@link DistributedLockDefinitionException}.
 */
public final class LockedMethods {

    private static final Map<Class<?>, List<Method>> ANNOTATED_BY_CLASS = new ConcurrentReferenceHashMap<>();

    private final @Nullable BeanFactory beanFactory;
    private final LockDefaults defaults;
    private final LockExpressions expressions;
    private final LockDurations durations;
    private final Map<MethodClassKey, LockedMethod> checked = new ConcurrentHashMap<>();

    /**
     * Creates the registry.
     *
     * @param beanFactory resolves {@code @beanName} references in key expressions; null allows none
     * @param defaults what unset annotation attributes mean
     */
    public LockedMethods(@Nullable BeanFactory beanFactory, LockDefaults defaults) {
        this.beanFactory = beanFactory;
        this.defaults = defaults;
        this.expressions = new LockExpressions(beanFactory);
        this.durations = new LockDurations(beanFactory, defaults);
    }

    /**
     * What unset annotation attributes mean.
     *
     * @return the defaults this registry applies
     */
    public LockDefaults defaults() {
        return defaults;
    }

    /**
     * Whether a method, as called on a target class, carries {@code @DistributedLock} (on itself or on the method it
     * implements or overrides).
     *
     * @param method the method as invoked
     * @param targetClass the class of the target bean
     * @return true if the method is to be locked
     */
    public static boolean isAnnotated(Method method, @Nullable Class<?> targetClass) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        return AnnotatedElementUtils.hasAnnotation(specific, DistributedLock.class);
    }

    /**
     * Checks every {@code @DistributedLock} method of a class.
     *
     * @param targetClass the bean's class (not its proxy class)
     * @return the annotated methods, empty if there are none
     * @throws DistributedLockDefinitionException for the first annotation that cannot work
     */
    public List<Method> inspect(Class<?> targetClass) {
        List<Method> annotated = annotatedMethods(targetClass);
        annotated.forEach(method -> get(method, targetClass));
        return annotated;
    }

    /**
     * Finds the {@code @DistributedLock} methods of a class without checking them.
     *
     * @param targetClass the bean's class (not its proxy class)
     * @return the annotated methods, empty if there are none
     */
    public static List<Method> annotatedMethods(Class<?> targetClass) {
        return ANNOTATED_BY_CLASS.computeIfAbsent(
                targetClass,
                type -> List.copyOf(MethodIntrospector.selectMethods(
                                type, (MethodIntrospector.MetadataLookup<DistributedLock>) method ->
                                        AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class))
                        .keySet()));
    }

    LockedMethod get(Method method, Class<?> targetClass) {
        return checked.computeIfAbsent(new MethodClassKey(method, targetClass), key -> check(method, targetClass));
    }

    private LockedMethod check(Method invoked, Class<?> targetClass) {
        Method method = AopUtils.getMostSpecificMethod(invoked, targetClass);
        DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
        if (annotation == null) {
            throw new DistributedLockDefinitionException(method, "the annotation is missing");
        }
        checkReachable(method);
        ReturnKind kind = ReturnKind.of(method);
        SuspendingFunctions.checkBusyHandling(method, annotation);
        Lease lease = durations.lease(method, annotation);
        Duration wait = durations.waitTime(method, annotation);
        Duration holdAtLeast = durations.holdAtLeast(method, annotation, lease);
        OnLockLost onLost = annotation.onLost() == OnLockLost.DEFAULT ? defaults.onLost() : annotation.onLost();
        LockedPath path = LockedPath.of(method, annotation, expressions);
        List<String> keyTexts = path == null ? keyTexts(method, annotation) : List.of();
        List<SpelExpression> keys = new ArrayList<>(keyTexts.size());
        for (int i = 0; i < keyTexts.size(); i++) {
            String attribute = annotation.keys().length == 0 ? "key" : "keys[" + i + "]";
            keys.add(parseKey(method, attribute, keyTexts.get(i)));
        }
        if (path == null && annotation.keys().length == 0) {
            checkSingleKey(method, keyTexts.get(0), keys.get(0));
        }
        Method fallback = fallback(method, targetClass, annotation.fallback());
        if (kind != ReturnKind.PLAIN && annotation.keys().length > 0) {
            throw new DistributedLockDefinitionException(
                    method,
                    "keys (several locks, all or none) is not supported for asynchronous return types yet; lock the"
                            + " keys inside the asynchronous work with Lock.callWithLocks, or make the method return a"
                            + " plain value");
        }
        checkSkip(method, annotation, kind);
        checkMinimumHold(method, annotation, kind);
        if (annotation.read() && annotation.fair()) {
            throw new DistributedLockDefinitionException(
                    method, "read and fair cannot be combined: readers never queue; set one of them");
        }
        checkPermits(method, annotation);
        return new LockedMethod(
                method,
                kind,
                keyLocks(annotation),
                annotation.keys().length > 0,
                keyTexts,
                List.copyOf(keys),
                path,
                lease,
                wait,
                onLost,
                fallback,
                fallback != null && fallback.getParameterCount() == method.getParameterCount() + 1,
                annotation.skipWhenBusy(),
                holdAtLeast,
                expressions.parameterNames(),
                beanFactory == null ? null : new BeanFactoryResolver(beanFactory));
    }

    /**
     * The lock kind an annotation asks for, beside the exclusive lock: {@link Kind#FAIR}, {@link Kind#READ}, {@link
     * Kind#PATH} or {@link Kind#SEMAPHORE}; the start-up check asks the {@link Lock} bean for it.
     *
     * @param annotation the annotation
     * @return the kind, or empty for the exclusive lock
     */
    public static Optional<Kind<?>> kindAskedFor(DistributedLock annotation) {
        if (!annotation.tree().isEmpty()) {
            return Optional.of(Kind.PATH);
        }
        if (annotation.permits() != 0) {
            return Optional.of(Kind.SEMAPHORE);
        }
        return Optional.ofNullable(annotation.read() ? Kind.READ : annotation.fair() ? Kind.FAIR : null);
    }

    /** What a method locking keys (not paths) takes them through, or null for the exclusive lock itself. */
    private static @Nullable UnaryOperator<Lock> keyLocks(DistributedLock annotation) {
        int permits = annotation.permits();
        if (permits != 0) {
            return lock -> Kind.SEMAPHORE.of(lock).permits(permits);
        }
        return annotation.read() ? Kind.READ::of : annotation.fair() ? Kind.FAIR::of : null;
    }

    /** Refuses a permit count out of range, and beside the attributes that ask for another kind or several keys. */
    private static void checkPermits(Method method, DistributedLock annotation) {
        int permits = annotation.permits();
        if (permits == 0) {
            return;
        }
        if (permits < 0 || permits > Semaphores.MAX_PERMITS) {
            throw new DistributedLockDefinitionException(
                    method,
                    "permits must be from 1 to " + Semaphores.MAX_PERMITS + " calls at once, or 0 for the key's lock,"
                            + " but was " + permits);
        }
        String other = annotation.keys().length > 0
                ? "keys"
                : !annotation.tree().isEmpty()
                        ? "tree"
                        : annotation.fair() ? "fair" : annotation.read() ? "read" : null;
        if (other == null && !annotation.holdAtLeast().isEmpty()) {
            other = "holdAtLeast";
        }
        if (other != null) {
            throw new DistributedLockDefinitionException(
                    method,
                    "permits cannot be combined with " + other + ": a semaphore hands out permits of one key,"
                            + " taken in no order and kept no longer than the call; remove one of them");
        }
    }

    private static void checkReachable(Method method) {
        if (Modifier.isPrivate(method.getModifiers()) || Modifier.isStatic(method.getModifiers())) {
            throw new DistributedLockDefinitionException(
                    method,
                    "private and static methods are never called through the Spring proxy, so they could not be "
                            + "locked; make the method public (or protected/package-private) and non-static");
        }
    }

    /**
     * Refuses {@code skipWhenBusy} where a skipped call would hand its caller something the method never made, and
     * beside a fallback, which already says what a busy lock does.
     */
    private static void checkSkip(Method method, DistributedLock annotation, ReturnKind kind) {
        if (!annotation.skipWhenBusy()) {
            return;
        }
        if (!annotation.fallback().isEmpty()) {
            throw new DistributedLockDefinitionException(
                    method,
                    "set skipWhenBusy or fallback, not both: a busy lock either skips the call or calls fallback \""
                            + annotation.fallback() + "\"");
        }
        if (kind != ReturnKind.PLAIN || method.getReturnType() != void.class) {
            throw new DistributedLockDefinitionException(
                    method,
                    "skipWhenBusy needs a method returning void, but it returns "
                            + method.getGenericReturnType().getTypeName()
                            + "; name a fallback to return a value when the lock is busy");
        }
    }

    /**
     * Refuses {@code holdAtLeast} where the lock's end is not the method's: asynchronous work releases on another
     * thread, several keys and read locks have no single key to keep.
     */
    private static void checkMinimumHold(Method method, DistributedLock annotation, ReturnKind kind) {
        if (annotation.holdAtLeast().isEmpty()) {
            return;
        }
        String refused = kind != ReturnKind.PLAIN
                ? "an asynchronous method or a Kotlin suspend function, whose lock ends after it returns"
                : annotation.keys().length > 0
                        ? "keys (several locks, all or none)"
                        : annotation.read() ? "a read lock, which other readers share" : null;
        if (refused != null) {
            throw new DistributedLockDefinitionException(
                    method,
                    "holdAtLeast is not supported on " + refused + "; it works on methods that return a plain value or"
                            + " void, locked by key or path");
        }
    }

    /** The key expressions: {@code key}, or the elements of {@code keys}; exactly one of the two is set. */
    private static List<String> keyTexts(Method method, DistributedLock annotation) {
        String[] several = annotation.keys();
        if (several.length == 0) {
            return List.of(annotation.key());
        }
        if (!annotation.key().isEmpty()) {
            throw new DistributedLockDefinitionException(
                    method,
                    "set key or keys, not both, but key is \"" + annotation.key() + "\" and keys are "
                            + Arrays.toString(several));
        }
        return List.of(several);
    }

    private SpelExpression parseKey(Method method, String attribute, String text) {
        if (text.isBlank()) {
            throw new DistributedLockDefinitionException(
                    method,
                    attribute + " must be a SpEL expression such as \"'stock:' + #sku\" (or set keys to several such"
                            + " expressions, or tree and path to lock a path in a tree), but was blank");
        }
        return expressions.parse(method, attribute, text);
    }

    /**
     * Refuses a {@code key} that is a collection or array parameter: it would name one lock by the collection's text,
     * where the author almost certainly meant a lock per element.
     */
    private void checkSingleKey(Method method, String text, SpelExpression expression) {
        if (!(expression.getAST() instanceof VariableReference)) {
            return;
        }
        String variable = expression.getAST().toStringAST().substring(1);
        int index = expressions.parameterIndex(method, variable);
        if (index < 0) {
            return;
        }
        Class<?> type = method.getParameterTypes()[index];
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            throw new DistributedLockDefinitionException(
                    method,
                    "key \"" + text + "\" is the " + type.getSimpleName() + " parameter #" + variable
                            + ", which would name one lock by the text of the whole " + type.getSimpleName()
                            + "; to take a lock for each element, all or none, write keys = \"" + text + "\"");
        }
    }

    static @Nullable Method fallback(Method method, Class<?> targetClass, String name) {
        if (name.isEmpty()) {
            return null;
        }
        Class<?>[] parameters = method.getParameterTypes();
        Class<?>[] withException = Arrays.copyOf(parameters, parameters.length + 1);
        withException[parameters.length] = LockNotAcquiredException.class;
        Method fallback = ReflectionUtils.findMethod(targetClass, name, parameters);
        if (fallback == null) {
            fallback = ReflectionUtils.findMethod(targetClass, name, withException);
        }
        if (fallback == null) {
            throw new DistributedLockDefinitionException(
                    method,
                    "fallback method \"" + name + "\" was not found in " + targetClass.getName()
                            + "; it must take the same parameters " + Arrays.toString(parameters)
                            + ", optionally followed by a LockNotAcquiredException");
        }
        if (!ClassUtils.isAssignable(method.getReturnType(), fallback.getReturnType())) {
            throw new DistributedLockDefinitionException(
                    method,
                    "fallback method \"" + name + "\" returns "
                            + fallback.getReturnType().getName() + ", which cannot be returned as "
                            + method.getReturnType().getName());
        }
        ReflectionUtils.makeAccessible(fallback);
        return fallback;
    }
}
