package io.distlock.annotation;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockNotAcquiredException;
import io.distlock.OnLockLost;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.util.ObjectUtils;

/**
 * One checked {@code @DistributedLock} method: its parsed key expression (or expressions, or tree and path), lease,
 * wait, fallback and loss policy.
 */
final class LockedMethod {

    private static final Logger log = LoggerFactory.getLogger(LockedMethod.class);

    private final Method method;
    private final ReturnKind kind;
    private final @Nullable UnaryOperator<Lock> keyLocks;
    private final boolean severalKeys;
    private final List<String> keyTexts;
    private final List<Expression> keys;
    private final @Nullable LockedPath path;
    private final Lease lease;
    private final Duration wait;
    private final OnLockLost onLost;
    private final @Nullable Method fallback;
    private final boolean fallbackTakesException;
    private final boolean skipWhenBusy;
    private final @Nullable Duration holdAtLeast;
    private final ParameterNameDiscoverer parameterNames;
    private final String parameters;
    private final @Nullable BeanResolver beans;

    LockedMethod(
            Method method,
            ReturnKind kind,
            @Nullable UnaryOperator<Lock> keyLocks,
            boolean severalKeys,
            List<String> keyTexts,
            List<? extends Expression> keys,
            @Nullable LockedPath path,
            Lease lease,
            Duration wait,
            OnLockLost onLost,
            @Nullable Method fallback,
            boolean fallbackTakesException,
            boolean skipWhenBusy,
            @Nullable Duration holdAtLeast,
            ParameterNameDiscoverer parameterNames,
            @Nullable BeanResolver beans) {
        this.method = method;
        this.kind = kind;
        this.keyLocks = keyLocks;
        this.severalKeys = severalKeys;
        this.keyTexts = keyTexts;
        this.keys = List.copyOf(keys);
        this.path = path;
        this.lease = lease;
        this.wait = wait;
        this.onLost = onLost;
        this.fallback = fallback;
        this.fallbackTakesException = fallbackTakesException;
        this.skipWhenBusy = skipWhenBusy;
        this.holdAtLeast = holdAtLeast;
        this.parameterNames = parameterNames;
        this.parameters = CallParameters.describe(method, parameterNames);
        this.beans = beans;
    }

    Method method() {
        return method;
    }

    /** How long the lock is held: while the method runs, or until what it returns ends. */
    ReturnKind kind() {
        return kind;
    }

    Lease lease() {
        return lease;
    }

    Duration waitTime() {
        return wait;
    }

    OnLockLost onLost() {
        return onLost;
    }

    /** How long after its acquisition the key stays held at least; null for an ordinary release. */
    @Nullable
    Duration holdAtLeast() {
        return holdAtLeast;
    }

    /**
     * The lock the method's keys are taken through: the kind it asks for (a semaphore of its permits), or the lock
     * itself.
     *
     * @throws UnsupportedOperationException if the lock lacks the kind; the start-up check refuses that earlier
     */
    Lock lockIn(Lock lock) {
        return keyLocks == null ? lock : keyLocks.apply(lock);
    }

    /** Whether the annotation names its locks with {@code keys}, to be taken all or none. */
    boolean severalKeys() {
        return severalKeys;
    }

    /**
     * Evaluates the tree and path of a method annotated with {@code tree} and {@code path}, for one call.
     *
     * @return the call's tree and path, or null if the method is locked by {@code key} or {@code keys}
     * @throws IllegalArgumentException naming the method, expression and parameters if the tree or path is invalid
     */
    LockedPath.@Nullable Call path(Object target, Object[] args) {
        return path == null ? null : path.evaluate(context(target, args));
    }

    /**
     * Evaluates the key of a method annotated with {@code key}, for one call.
     *
     * @throws IllegalArgumentException naming the method, expression and parameters if the key is null, blank, an
     *     array or a collection, or cannot be evaluated
     */
    String key(Object target, Object[] args) {
        Object value = evaluate(0, context(target, args));
        if (value instanceof Collection<?> || value.getClass().isArray()) {
            throw badKey(
                    0,
                    "evaluated to a " + value.getClass().getName() + "; to take several keys, all or none, set keys"
                            + " instead of key",
                    null);
        }
        return oneKey(0, value);
    }

    /**
     * Evaluates the keys of a method annotated with {@code keys}, for one call: each expression's key, or the
     * elements of the array or collection it gives.
     *
     * @throws IllegalArgumentException naming the method, expression and parameters if a key is null or blank, an
     *     expression cannot be evaluated, or there is no key at all
     */
    List<String> keys(Object target, Object[] args) {
        MethodBasedEvaluationContext context = context(target, args);
        List<String> result = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            Object value = evaluate(i, context);
            if (value instanceof Collection<?> elements) {
                for (Object element : elements) {
                    result.add(oneKey(i, element));
                }
            } else if (value.getClass().isArray()) {
                for (Object element : ObjectUtils.toObjectArray(value)) {
                    result.add(oneKey(i, element));
                }
            } else {
                result.add(oneKey(i, value));
            }
        }
        if (result.isEmpty()) {
            throw new IllegalArgumentException(
                    "@DistributedLock keys of " + DistributedLockDefinitionException.describe(method) + " gave no key"
                            + " at all: expressions " + keyTexts + " over the parameters " + parameters
                            + "; the method did not run");
        }
        return result;
    }

    private MethodBasedEvaluationContext context(Object target, Object[] args) {
        MethodBasedEvaluationContext context =
                new MethodBasedEvaluationContext(new LockKeyRoot(method, target, args), method, args, parameterNames);
        if (beans != null) {
            context.setBeanResolver(beans);
        }
        return context;
    }

    private Object evaluate(int index, MethodBasedEvaluationContext context) {
        Object value;
        try {
            value = keys.get(index).getValue(context);
        } catch (EvaluationException e) {
            throw badKey(index, "could not be evaluated (" + e.getMessage() + ")", e);
        }
        if (value == null) {
            throw badKey(index, "evaluated to null", null);
        }
        return value;
    }

    private String oneKey(int index, @Nullable Object value) {
        if (value == null) {
            throw badKey(index, "gave a null key", null);
        }
        String text = value.toString();
        if (text.isBlank()) {
            throw badKey(index, "evaluated to a blank key", null);
        }
        return text;
    }

    /**
     * Skips the call of a {@code skipWhenBusy} method, or calls the fallback instead of the method, or throws {@code
     * notAcquired} if there is none.
     */
    @Nullable
    Object notAcquired(Object target, Object[] args, Supplier<LockNotAcquiredException> notAcquiredException)
            throws Throwable {
        if (skipWhenBusy) {
            // A skip is routine: it names no holder, so that it costs no read of the store.
            log.debug(
                    "Skipped {}: its lock was held for the whole wait",
                    DistributedLockDefinitionException.describe(method));
            return null;
        }
        LockNotAcquiredException notAcquired = notAcquiredException.get();
        if (fallback == null) {
            throw notAcquired;
        }
        Object[] fallbackArgs = args;
        if (fallbackTakesException) {
            fallbackArgs = Arrays.copyOf(args, args.length + 1);
            fallbackArgs[args.length] = notAcquired;
        }
        try {
            return fallback.invoke(target, fallbackArgs);
        } catch (InvocationTargetException e) {
            throw e.getTargetException();
        }
    }

    private IllegalArgumentException badKey(int index, String problem, @Nullable Throwable cause) {
        String attribute = severalKeys ? "keys[" + index + "]" : "key";
        return new IllegalArgumentException(
                "@DistributedLock " + attribute + " of " + DistributedLockDefinitionException.describe(method) + " "
                        + problem + ": expression \"" + keyTexts.get(index) + "\" over the parameters " + parameters
                        + "; the method did not run",
                cause);
    }
}
