package io.distlock.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/** Matches when {@link LockBackends} chooses this backend for the lock bean. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Documented
@Conditional(OnLockBackendCondition.class)
public @interface ConditionalOnLockBackend {

    /** The backend. */
    LockBackend value();
}
