package io.distlock.annotation;

import java.lang.reflect.Method;
import java.util.StringJoiner;
import org.springframework.core.ParameterNameDiscoverer;

/**
 * How an error about one call of a locked method names the call's arguments: by the position, type and name of each
 * parameter, never by value. Arguments are what a client sent, passwords and personal data included, and the error of
 * a key that came out blank is logged by whoever catches it.
 */
final class CallParameters {

    private CallParameters() {}

    /**
     * The method's parameters, such as {@code [0: String secret, 1: List accounts]}; without compiled names, such as
     * {@code [0: String, 1: List]}.
     */
    static String describe(Method method, ParameterNameDiscoverer names) {
        String[] discovered = names.getParameterNames(method);
        Class<?>[] types = method.getParameterTypes();
        StringJoiner parameters = new StringJoiner(", ", "[", "]");
        for (int i = 0; i < types.length; i++) {
            String name = discovered != null && i < discovered.length ? " " + discovered[i] : "";
            parameters.add(i + ": " + types[i].getSimpleName() + name);
        }
        return parameters + " (their values are not shown)";
    }
}
