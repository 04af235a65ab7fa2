package io.distlock.annotation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;

/**
 * Checks every bean with {@code @DistributedLock} methods as it is created: each annotation must be valid, and the
 * bean must have been proxied with the distlock advisor in a way that reaches the annotated methods. Otherwise the
 * bean, and so the application, fails to start: an annotated method must never run without its lock.
 *
 * <p>It runs after every other post-processor, so it sees the final proxy.
 */
public final class DistributedLockBeanChecker implements BeanPostProcessor, Ordered {

    private final ObjectProvider<LockedMethods> methods;
    private final ObjectProvider<DistributedLockAdvisor> advisor;

    /**
     * Creates the checker; both collaborators are looked up on first use, so that creating this post-processor early
     * creates nothing else.
     *
     * @param methods the registry that checks annotations
     * @param advisor the advisor that must proxy annotated beans
     */
    public DistributedLockBeanChecker(
            ObjectProvider<LockedMethods> methods, ObjectProvider<DistributedLockAdvisor> advisor) {
        this.methods = methods;
        this.advisor = advisor;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        // Most beans have no annotated method; only the others need the registry, which may not exist yet.
        if (LockedMethods.annotatedMethods(targetClass).isEmpty()) {
            return bean;
        }
        List<Method> annotated;
        try {
            annotated = methods.getObject().inspect(targetClass);
        } catch (DistributedLockDefinitionException e) {
            throw new BeanCreationException(beanName, e.getMessage(), e);
        }
        checkProxied(bean, beanName, annotated);
        return bean;
    }

    private void checkProxied(Object bean, String beanName, List<Method> annotated) {
        DistributedLockAdvisor expected = advisor.getObject();
        boolean advised = bean instanceof Advised proxy
                && Arrays.stream(proxy.getAdvisors()).anyMatch(candidate -> candidate == expected);
        if (!advised) {
            throw new BeanCreationException(
                    beanName,
                    "Bean of " + AopUtils.getTargetClass(bean).getName() + " has @DistributedLock methods but was "
                            + "not proxied by distlock, so they would run without their lock. Make sure Spring AOP "
                            + "auto-proxying is on (spring-boot-starter-aspectj, spring.aop.auto=true) and that the "
                            + "bean is not created before post-processors run (for example by a BeanPostProcessor "
                            + "that depends on it)");
        }
        for (Method method : annotated) {
            if (AopUtils.isCglibProxy(bean) && Modifier.isFinal(method.getModifiers())) {
                throw new BeanCreationException(
                        beanName,
                        new DistributedLockDefinitionException(
                                        method,
                                        "final methods cannot be intercepted by the class-based proxy; remove final")
                                .getMessage());
            }
            if (AopUtils.isJdkDynamicProxy(bean) && !declaredByProxiedInterface(bean, method)) {
                throw new BeanCreationException(
                        beanName,
                        new DistributedLockDefinitionException(
                                        method,
                                        "the bean is proxied by interface and no interface declares this method, so "
                                                + "calls never reach the lock; declare it in the interface or use "
                                                + "class-based proxies (spring.aop.proxy-target-class=true)")
                                .getMessage());
            }
        }
    }

    /**
     * Whether an interface of the proxy declares the method, also as a generic method that the class implements with
     * concrete types ({@code handle(Order)} for {@code Handler<T>.handle(T)}), where calls arrive through a bridge.
     */
    private static boolean declaredByProxiedInterface(Object proxy, Method method) {
        Class<?> targetClass = AopUtils.getTargetClass(proxy);
        for (Class<?> type : ((Advised) proxy).getProxiedInterfaces()) {
            for (Method declared : type.getMethods()) {
                if (declared.getName().equals(method.getName())
                        && declared.getParameterCount() == method.getParameterCount()
                        && AopUtils.getMostSpecificMethod(declared, targetClass).equals(method)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
