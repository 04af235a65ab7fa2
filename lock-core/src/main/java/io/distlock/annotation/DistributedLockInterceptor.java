package io.distlock.annotation;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.LockedExecution;
import io.distlock.MultiLockHandle;
import io.distlock.internal.engine.KeyHolders;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;

/**
 * Takes the lock (all the locks, or the path in its tree) of a {@code @DistributedLock} method before it runs and
 * releases it afterwards; when it is not acquired in time, calls the fallback or throws {@link
 * LockNotAcquiredException} without running the method. For a method returning a {@code CompletionStage}, {@code Mono}
 * or {@code Flux}, the lock is taken without blocking the caller and held until what the method returned ends.
 *
 * <p>A Kotlin suspend function is held until its coroutine completes, fails or is cancelled. Spring calls it through
 * {@code invocation.proceed()} as a lazy {@code Mono} (a {@code Flux} when it returns a {@code Flow}, held until the
 * {@code Flow} ends), which its proxy awaits after this interceptor has returned; so this interceptor returns a
 * publisher that takes the lock, without blocking, when awaited, and runs the function's publisher under it, exactly as
 * for a method returning a {@code Mono}. It needs {@code org.jetbrains.kotlinx:kotlinx-coroutines-reactor}, without
 * which Spring calls the function directly and start-up fails.
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
        LockedPath.Call onPath = locked.path(target, args);
        if (onPath != null) {
            if (locked.kind() != ReturnKind.PLAIN) {
                return invokeDeferred(invocation, locked, onPath.lockIn(lock.get()), onPath.path(), target, args);
            }
            return invokeOnPath(invocation, locked, onPath, target, args);
        }
        Lock taking = locked.lockIn(lock.get());
        if (locked.severalKeys()) {
            return invokeWithKeys(invocation, locked, taking, target, args);
        }
        String key = locked.key(target, args);
        if (locked.kind() != ReturnKind.PLAIN) {
            return invokeDeferred(invocation, locked, taking, key, target, args);
        }
        Optional<LockHandle> handle;
        try {
            handle = taking.tryAcquire(key, locked.lease(), locked.waitTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockNotAcquiredException(key, locked.waitTime(), e);
        }
        return proceedHolding(invocation, locked, taking, target, args, key, handle.orElse(null));
    }

    /**
     * A method whose work goes on after it returns: the lock is acquired without blocking this thread, the method
     * called once it is held, and the lock held until the returned stage or publisher ends.
     */
    private Object invokeDeferred(
            MethodInvocation invocation, LockedMethod locked, Lock taking, String key, Object target, Object[] args) {
        if (locked.kind() == ReturnKind.STAGE) {
            return AsyncLockedExecution.call(
                    taking.tryAcquireAsync(key, locked.lease(), locked.waitTime()),
                    key,
                    locked.waitTime(),
                    locked.onLost(),
                    invocation::proceed,
                    notAcquired -> locked.notAcquired(target, args, () -> notAcquired));
        }
        return ReactiveLockedExecution.call(locked, taking, key, invocation, target, args);
    }

    private @Nullable Object invokeOnPath(
            MethodInvocation invocation, LockedMethod locked, LockedPath.Call call, Object target, Object[] args)
            throws Throwable {
        Lock tree = call.lockIn(lock.get());
        String path = call.path();
        Optional<LockHandle> handle;
        try {
            handle = tree.tryAcquire(path, locked.lease(), locked.waitTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockNotAcquiredException(path, locked.waitTime(), e);
        } catch (IllegalArgumentException refused) {
            // The lease and wait were checked at start-up, so the path lock refused the path, such as "a//b".
            throw call.refused(refused);
        }
        return proceedHolding(invocation, locked, tree, target, args, path, handle.orElse(null));
    }

    private @Nullable Object proceedHolding(
            MethodInvocation invocation,
            LockedMethod locked,
            Lock taking,
            Object target,
            Object[] args,
            String key,
            @Nullable LockHandle handle)
            throws Throwable {
        if (handle == null) {
            return locked.notAcquired(target, args, () -> KeyHolders.notAcquired(taking, key, locked.waitTime()));
        }
        return LockedExecution.call(handle, locked.onLost(), locked.holdAtLeast(), invocation::proceed);
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
            return locked.notAcquired(target, args, () -> new LockNotAcquiredException(keys, locked.waitTime()));
        }
        return LockedExecution.call(held.get(), locked.onLost(), invocation::proceed);
    }
}
