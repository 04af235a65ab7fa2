package io.distlock.annotation;

import java.lang.reflect.Method;
import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;

/**
 * Applies the {@link DistributedLockInterceptor} to {@code @DistributedLock} methods. Its order places the lock
 * relative to other advice; to enclose transactions it must come before (be lower than) the transaction advisor's
 * order.
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient DistributedLockInterceptor interceptor;

    /**
     * Creates the advisor.
     *
     * @param interceptor the interceptor to apply
     * @param order the advisor's order; lower runs first (further outside)
     */
    public DistributedLockAdvisor(DistributedLockInterceptor interceptor, int order) {
        this.interceptor = interceptor;
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return AnnotatedMethods.INSTANCE;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }

    private static final class AnnotatedMethods extends StaticMethodMatcherPointcut {

        static final AnnotatedMethods INSTANCE = new AnnotatedMethods();

        @Override
        public boolean matches(Method method, @Nullable Class<?> targetClass) {
            return LockedMethods.isAnnotated(method, targetClass);
        }
    }
}
