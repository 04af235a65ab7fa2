package io.distlock.annotation;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * How long the lock of a {@code @DistributedLock} method is held, decided once from its return type: until it returns,
 * or until the stage or publisher it returns ends. A Kotlin suspend function, which Spring calls as a publisher, is held
 * until its coroutine ends.
 */
enum ReturnKind {

    /** Held while the method runs. */
    PLAIN,

    /** Held until the returned {@link CompletionStage} completes. */
    STAGE,

    /**
     * Held until the returned Reactor {@code Mono} completes, fails or is cancelled; also a suspend function, which
     * Spring calls as a {@code Mono} of its result.
     */
    MONO,

    /**
     * Held until the returned Reactor {@code Flux} completes, fails or is cancelled; also a suspend function returning
     * a Kotlin {@code Flow}, which Spring calls as a {@code Flux}.
     */
    FLUX;

    private static final String MONO_TYPE = "reactor.core.publisher.Mono";
    private static final String FLUX_TYPE = "reactor.core.publisher.Flux";
    private static final String REACTIVE_PUBLISHER = "org.reactivestreams.Publisher";
    private static final String ALLOWED = "asynchronous methods may return CompletionStage or CompletableFuture, or, "
            + "with Reactor, Mono or Flux, or be Kotlin suspend functions, also returning a Flow; the lock is then held "
            + "until the returned stage or publisher, or the coroutine, ends";

    /**
     * The kind of a method's return type.
     *
     * @throws DistributedLockDefinitionException for a deferred result whose end cannot be tracked
     */
    static ReturnKind of(Method method) {
        if (SuspendingFunctions.isSuspending(method)) {
            return SuspendingFunctions.kind(method);
        }
        Class<?> type = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(type)) {
            if (!type.isAssignableFrom(CompletableFuture.class)) {
                throw refused(method, type, "a CompletionStage of its own type, which the lock could not return");
            }
            return STAGE;
        }
        // By name, so that this class loads without Reactor and Reactive Streams.
        if (isOrExtends(type, MONO_TYPE)) {
            return MONO;
        }
        if (isOrExtends(type, FLUX_TYPE)) {
            return FLUX;
        }
        if (isOrExtends(type, SuspendingFunctions.FLOW_TYPE)) {
            throw refused(
                    method,
                    type,
                    "a Kotlin Flow from a function that is not suspend: Spring hands it back uncollected, and its work"
                            + " would run after the lock was released; make the function suspend");
        }
        if (Future.class.isAssignableFrom(type)) {
            throw refused(method, type, "a Future, whose completion cannot be watched without blocking a thread");
        }
        if (Flow.Publisher.class.isAssignableFrom(type) || isOrExtends(type, REACTIVE_PUBLISHER)) {
            throw refused(method, type, "a publisher other than Reactor's Mono and Flux; convert it to one of them");
        }
        return PLAIN;
    }

    private static DistributedLockDefinitionException refused(Method method, Class<?> type, String why) {
        return new DistributedLockDefinitionException(
                method,
                "it returns " + type.getName() + ", " + why + ". " + ALLOWED + "; or lock inside the asynchronous "
                        + "work, or return a plain value");
    }

    /** Walks the whole type hierarchy. */
    private static boolean isOrExtends(@Nullable Class<?> type, String name) {
        if (type == null) {
            return false;
        }
        if (type.getName().equals(name) || isOrExtends(type.getSuperclass(), name)) {
            return true;
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (isOrExtends(implemented, name)) {
                return true;
            }
        }
        return false;
    }
}
