package io.distlock.annotation;

import io.distlock.DistributedLock;
import java.lang.reflect.Method;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Tells a native image what the {@code @DistributedLock} methods of a bean reach by reflection, so that they lock
 * there as they do on the JVM: the annotated methods themselves, whose annotation and parameter names the key
 * expressions are read from and which the proxy invokes; their fallback methods, which are invoked reflectively; and
 * the public methods and fields of their parameters' own types, which the key expressions may read ({@code
 * #order.id}). An annotation that cannot work fails the build here, as it would fail start-up.
 */
final class LockedMethodsAotProcessor implements BeanRegistrationAotProcessor {

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
        Class<?> type = bean.getBeanClass();
        List<Method> annotated = LockedMethods.annotatedMethods(type);
        if (annotated.isEmpty()) {
            return null;
        }
        return (generation, code) -> register(generation.getRuntimeHints().reflection(), type, annotated);
    }

    private static void register(ReflectionHints hints, Class<?> type, List<Method> annotated) {
        for (Method method : annotated) {
            hints.registerMethod(method, ExecutableMode.INVOKE);
            DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
            Method fallback = annotation == null ? null : LockedMethods.fallback(method, type, annotation.fallback());
            if (fallback != null) {
                hints.registerMethod(fallback, ExecutableMode.INVOKE);
            }
            for (Class<?> parameter : method.getParameterTypes()) {
                if (isApplicationType(parameter)) {
                    hints.registerType(
                            parameter, MemberCategory.INVOKE_PUBLIC_METHODS, MemberCategory.ACCESS_PUBLIC_FIELDS);
                }
            }
        }
    }

    /** The JDK's types are readable in a native image without hints, and arrays are refused as keys. */
    private static boolean isApplicationType(Class<?> type) {
        return !type.isPrimitive() && !type.isArray() && !type.getName().startsWith("java.");
    }
}
