package io.distlock.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when the backend choice chose this backend for the {@link io.distlock.Lock} bean: the one {@code
 * distlock.backend} names, or else the only one present (see {@link LockBackendCandidate}). For the configuration in a
 * backend's package that builds the lock. It looks at bean definitions, so it is evaluated when beans are registered.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Documented
@Conditional(OnLockBackendCondition.class)
public @interface ConditionalOnLockBackend {

    /** The backend's {@linkplain LockBackendCandidate#id() id}, such as {@code jdbc}. */
    String value();
}
