package io.distlock.annotation;

import io.distlock.Lease;
import io.distlock.LockNotAcquiredException;
import io.distlock.OnLockLost;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;

/** One checked {@code @DistributedLock} method: its parsed key expression, lease, wait, fallback and loss policy. */
final class LockedMethod {

    private final Method method;
    private final String keyText;
    private final Expression key;
    private final Lease lease;
    private final Duration wait;
    private final OnLockLost onLost;
    private final @Nullable Method fallback;
    private final boolean fallbackTakesException;
    private final ParameterNameDiscoverer parameterNames;
    private final @Nullable BeanResolver beans;

    LockedMethod(
            Method method,
            String keyText,
            Expression key,
            Lease lease,
            Duration wait,
            OnLockLost onLost,
            @Nullable Method fallback,
            boolean fallbackTakesException,
            ParameterNameDiscoverer parameterNames,
            @Nullable BeanResolver beans) {
        this.method = method;
        this.keyText = keyText;
        this.key = key;
        this.lease = lease;
        this.wait = wait;
        this.onLost = onLost;
        this.fallback = fallback;
        this.fallbackTakesException = fallbackTakesException;
        this.parameterNames = parameterNames;
        this.beans = beans;
    }

    Method method() {
        return method;
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

    /**
     * Evaluates the key for one call.
     *
     * @throws IllegalArgumentException naming the method, expression and arguments if the key is null, blank or
     *     cannot be evaluated
     */
    String key(Object target, Object[] args) {
        MethodBasedEvaluationContext context =
                new MethodBasedEvaluationContext(new LockKeyRoot(method, target, args), method, args, parameterNames);
        if (beans != null) {
            context.setBeanResolver(beans);
        }
        Object value;
        try {
            value = key.getValue(context);
        } catch (EvaluationException e) {
            throw badKey("could not be evaluated (" + e.getMessage() + ")", args, e);
        }
        if (value == null) {
            throw badKey("evaluated to null", args, null);
        }
        String text = value.toString();
        if (text.isBlank()) {
            throw badKey("evaluated to a blank key \"" + text + "\"", args, null);
        }
        return text;
    }

    /** Calls the fallback instead of the method, or throws {@code notAcquired} if there is none. */
    @Nullable
    Object notAcquired(Object target, Object[] args, LockNotAcquiredException notAcquired) throws Throwable {
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

    private IllegalArgumentException badKey(String problem, Object[] args, @Nullable Throwable cause) {
        return new IllegalArgumentException(
                "@DistributedLock key of " + DistributedLockDefinitionException.describe(method) + " " + problem
                        + ": expression \"" + keyText + "\" with arguments " + Arrays.deepToString(args)
                        + "; the method did not run",
                cause);
    }
}
