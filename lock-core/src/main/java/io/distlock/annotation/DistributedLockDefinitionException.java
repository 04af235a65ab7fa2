package io.distlock.annotation;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A {@link io.distlock.DistributedLock @DistributedLock} that cannot work as written. Thrown when the annotated bean is
 * created, so the application does not start; the message names the method, what is wrong and what is allowed.
 */
public class DistributedLockDefinitionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param method the annotated method
     * @param problem what is wrong and how to fix it
     */
    public DistributedLockDefinitionException(Method method, String problem) {
        super("@DistributedLock on " + describe(method) + ": " + problem);
    }

    /**
     * Describes a method the way messages name it: {@code InventoryService.deduct(String, int)}.
     *
     * @param method the method
     * @return its class's simple name, its name and its parameter types
     */
    public static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName()
                + Arrays.stream(method.getParameterTypes())
                        .map(Class::getSimpleName)
                        .collect(Collectors.joining(", ", "(", ")"));
    }
}
