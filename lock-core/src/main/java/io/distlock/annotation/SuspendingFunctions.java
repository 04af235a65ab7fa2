package io.distlock.annotation;

import io.distlock.DistributedLock;
import java.lang.reflect.Method;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;

/**
 * Kotlin suspend functions, found by name so that distlock needs no Kotlin. Spring's {@code
 * AopUtils.invokeJoinpointUsingReflection} calls one through {@code CoroutinesUtils.invokeSuspendingFunction}, which
 * gives a lazy {@code Mono} of its result, or a {@code Flux} when it returns a {@code Flow}; the proxy then awaits what
 * the interceptors returned, or turns it back into a {@code Flow}. The body therefore runs only after the interceptor
 * has returned, and the lock must follow that publisher, as it follows a method returning a {@code Mono} or {@code
 * Flux}.
 */
final class SuspendingFunctions {

    /** What Spring's AOP checks for before it calls a suspend function through a publisher. */
    private static final String REACTOR_BRIDGE = "kotlinx.coroutines.reactor.MonoKt";

    static final String FLOW_TYPE = "kotlinx.coroutines.flow.Flow";

    private SuspendingFunctions() {}

    static boolean isSuspending(Method method) {
        return KotlinDetector.isSuspendingFunction(method);
    }

    /**
     * {@link ReturnKind#FLUX} for a suspend function returning a {@code Flow}, {@link ReturnKind#MONO} for any other.
     *
     * @throws DistributedLockDefinitionException if Spring would call it without a publisher
     */
    static ReturnKind kind(Method method) {
        // Spring's class loader, since it is Spring's AOP that decides whether a publisher comes back.
        if (!ClassUtils.isPresent(REACTOR_BRIDGE, AopUtils.class.getClassLoader())) {
            throw new DistributedLockDefinitionException(
                    method,
                    "it is a Kotlin suspend function, which Spring calls through a Reactor Mono only when"
                            + " org.jetbrains.kotlinx:kotlinx-coroutines-reactor is on the class path; without it the"
                            + " function would go on running after its lock was released. Add that dependency");
        }
        // The test Spring's proxies make to choose between awaiting the result and handing back a Flow.
        boolean flow = FLOW_TYPE.equals(
                new MethodParameter(method, -1).getParameterType().getName());
        return flow ? ReturnKind.FLUX : ReturnKind.MONO;
    }

    /**
     * Refuses what a busy lock cannot do for a suspend function: the fallback and the skip are called as plain
     * methods, and give no publisher for Spring to await.
     */
    static void checkBusyHandling(Method method, DistributedLock annotation) {
        if (!isSuspending(method) || (annotation.fallback().isEmpty() && !annotation.skipWhenBusy())) {
            return;
        }
        throw new DistributedLockDefinitionException(
                method,
                "fallback and skipWhenBusy are not supported on a Kotlin suspend function; leave them out and catch"
                        + " LockNotAcquiredException where the function is called");
    }
}
