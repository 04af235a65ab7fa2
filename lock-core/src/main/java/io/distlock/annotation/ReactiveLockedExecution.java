package io.distlock.annotation;

import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.reactor.ReactiveLock;
import org.aopalliance.intercept.MethodInvocation;
import org.reactivestreams.Publisher;
import org.springframework.aop.ProxyMethodInvocation;
import reactor.core.publisher.Flux;

/**
 * Runs a {@code @DistributedLock} method that returns a Reactor {@code Mono} or {@code Flux}, or a Kotlin suspend
 * function, which Spring calls as one, through {@link ReactiveLock}: nothing happens until subscription; then the lock
 * is taken without blocking, the method is called once it is held, and the lock is released when its publisher
 * completes, fails or is cancelled. Loaded only for such methods, so only when Reactor is present.
 */
final class ReactiveLockedExecution {

    private ReactiveLockedExecution() {}

    /** The Mono or Flux to return to the caller in place of the method's. */
    static Object call(
            LockedMethod locked, Lock taking, String key, MethodInvocation invocation, Object target, Object[] args) {
        Flux<Object> held = new ReactiveLock(taking)
                .withLockMany(
                        key,
                        locked.lease(),
                        locked.waitTime(),
                        locked.onLost(),
                        handle -> proceed(invocation, handle),
                        notAcquired -> publisher(() -> locked.notAcquired(target, args, () -> notAcquired)));
        return locked.kind() == ReturnKind.MONO ? held.singleOrEmpty() : held;
    }

    /** Calls the method for one subscription, in a fresh copy of the invocation, inside a scope of the handle. */
    private static Publisher<Object> proceed(MethodInvocation invocation, LockHandle handle) {
        MethodInvocation once =
                invocation instanceof ProxyMethodInvocation proxied ? proxied.invocableClone() : invocation;
        LockContext.Scope scope = LockContext.enter(handle);
        try {
            return publisher(once::proceed);
        } finally {
            scope.close();
        }
    }

    @SuppressWarnings("unchecked")
    private static Publisher<Object> publisher(AsyncLockedExecution.Call call) {
        Object returned;
        try {
            returned = call.call();
        } catch (Throwable failure) {
            return Flux.error(failure);
        }
        if (returned == null) {
            return Flux.error(new IllegalStateException(
                    "a @DistributedLock method returning a Mono or Flux returned null instead of a publisher"));
        }
        return (Publisher<Object>) returned;
    }
}
