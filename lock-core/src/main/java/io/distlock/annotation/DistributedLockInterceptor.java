package io.distlock.annotation;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.LockedExecution;
import io.distlock.MultiLockHandle;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;

/**
 * Takes the lock (or all the locks) of a {@code @DistributedLock} method before it runs and releases it afterwards; when
 * it is not acquired in time, calls the fallback or throws {@link LockNotAcquiredException} without running the method.
 */
public final class DistributedLockInterceptor implements MethodInterceptor {

    private final Supplier<Lock> lock;
    private final Supplier<LockedMethods> methods;

    /**
     * Creates the interceptor. Both collaborators are asked for on the first call, so the advisor can exist before the
     * Redis connection and the configuration do.
     *
     * @param lock supplies the lock that annotated methods take
     * @param methods supplies the checked annotated methods
     */
    public DistributedLockInterceptor(Supplier<Lock> lock, Supplier<LockedMethods> methods) {
        this.lock = lock;
        this.methods = methods;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        if (target == null) {
            throw new IllegalStateException("@DistributedLock needs a target object to call "
                    + DistributedLockDefinitionException.describe(invocation.getMethod()));
        }
        LockedMethod locked = methods.get().get(invocation.getMethod(), AopUtils.getTargetClass(target));
        Object[] args = invocation.getArguments();
        Lock taking = locked.read()
                ? lock.get().reading()
                : locked.fair() ? lock.get().fair() : lock.get();
        if (locked.severalKeys()) {
            return invokeWithKeys(invocation, locked, taking, target, args);
        }
        String key = locked.key(target, args);
        Optional<LockHandle> handle;
        try {
            handle = taking.tryAcquire(key, locked.lease(), locked.waitTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockNotAcquiredException(key, locked.waitTime(), e);
        }
        if (handle.isEmpty()) {
            return locked.notAcquired(target, args, new LockNotAcquiredException(key, locked.waitTime()));
        }
        return LockedExecution.call(handle.get(), locked.onLost(), invocation::proceed);
    }

    private @Nullable Object invokeWithKeys(
            MethodInvocation invocation, LockedMethod locked, Lock taking, Object target, Object[] args)
            throws Throwable {
        List<String> keys = locked.keys(target, args);
        Optional<MultiLockHandle> held;
        try {
            held = taking.tryAcquireAll(keys, locked.lease(), locked.waitTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockNotAcquiredException(keys, locked.waitTime(), e);
        }
        if (held.isEmpty()) {
            return locked.notAcquired(target, args, new LockNotAcquiredException(keys, locked.waitTime()));
        }
        return LockedExecution.call(held.get(), locked.onLost(), invocation::proceed);
    }
}
