package io.distlock.annotation;

import java.lang.reflect.Method;

/**
 * The root object of the expressions of {@link io.distlock.DistributedLock}, its {@code key}, {@code keys}, {@code
 * tree} and {@code path}: {@code #root.method} and so on.
 */
public final class LockKeyRoot {

    private final Method method;
    private final Object target;
    private final Object[] args;

    LockKeyRoot(Method method, Object target, Object[] args) {
        this.method = method;
        this.target = target;
        this.args = args;
    }

    /**
     * The annotated method.
     *
     * @return {@code #root.method}
     */
    public Method getMethod() {
        return method;
    }

    /**
     * The bean whose method is called (the target behind the proxy).
     *
     * @return {@code #root.target}
     */
    public Object getTarget() {
        return target;
    }

    /**
     * The class of the target bean.
     *
     * @return {@code #root.targetClass}
     */
    public Class<?> getTargetClass() {
        return target.getClass();
    }

    /**
     * The call's arguments.
     *
     * @return {@code #root.args}
     */
    public Object[] getArgs() {
        return args;
    }
}
