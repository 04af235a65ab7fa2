package io.distlock.annotation;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.OnLockLost;
import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@code @DistributedLock} method that returns a {@link CompletionStage}: calls it once the lock is held, and
 * holds the lock until the stage it returned completes.
 *
 * <p>The method is not called on a grant that arrived after its lease ran out: the caller's future fails with {@link
 * LockLostException} instead, whatever {@code onLost} says.
 *
 * <p>The method's synchronous part runs on the thread that completes the acquisition, inside a {@link LockContext}
 * scope of the handle; the later stages of its work do not see that scope. The future returned to the caller
 * completes after the release. If the caller completes it first (a cancel, or {@code orTimeout}), the acquisition is
 * cancelled, or, once the method runs, the method's own future is cancelled and the lock released right away (off the
 * caller's thread): work the method started that does not watch its future's cancellation may then go on without the
 * lock.
 */
final class AsyncLockedExecution {

    private static final Logger log = LoggerFactory.getLogger(AsyncLockedExecution.class);

    /** The annotated method, or the fallback, called through the proxy's chain. */
    @FunctionalInterface
    interface Call {
        @Nullable
        Object call() throws Throwable;
    }

    /** The fallback, or a throw of the not-acquired exception when there is none. */
    @FunctionalInterface
    interface Fallback {
        @Nullable
        Object call(LockNotAcquiredException notAcquired) throws Throwable;
    }

    private AsyncLockedExecution() {}

    static CompletableFuture<Object> call(
            CompletionStage<Optional<LockHandle>> acquisition,
            String key,
            Duration wait,
            OnLockLost onLost,
            Call method,
            Fallback fallback) {
        CompletableFuture<Optional<LockHandle>> acquiring = acquisition.toCompletableFuture();
        CompletableFuture<Object> result = new CompletableFuture<>();
        // Does nothing once acquired; before, it ends the wait, and the acquisition releases a late grant.
        result.whenComplete((value, failure) -> acquiring.cancel(false));
        acquiring.whenComplete((acquired, failure) -> {
            if (failure != null) {
                result.completeExceptionally(unwrap(failure));
            } else if (acquired.isPresent()) {
                new Holding(acquired.get(), onLost, result).run(method);
            } else {
                pipe(() -> fallback.call(new LockNotAcquiredException(key, wait)), result);
            }
        });
        return result;
    }

    /** Completes {@code result} as the stage that {@code call} returns completes, or with what it throws. */
    private static void pipe(Call call, CompletableFuture<Object> result) {
        CompletionStage<?> stage;
        try {
            stage = stage(call.call());
        } catch (Throwable failure) {
            result.completeExceptionally(failure);
            return;
        }
        stage.whenComplete((value, failure) -> {
            if (failure != null) {
                result.completeExceptionally(unwrap(failure));
            } else {
                result.complete(value);
            }
        });
    }

    private static CompletionStage<?> stage(@Nullable Object returned) {
        if (returned == null) {
            throw new IllegalStateException(
                    "a @DistributedLock method returning a CompletionStage returned null instead of a stage");
        }
        return (CompletionStage<?>) returned;
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** One held lock, released once: when the method's stage completes, or when the caller's future is completed. */
    private static final class Holding {
        private final LockHandle handle;
        private final OnLockLost onLost;
        private final CompletableFuture<Object> result;
        private final AtomicBoolean released = new AtomicBoolean();
        private volatile @Nullable CompletableFuture<?> running;

        Holding(LockHandle handle, OnLockLost onLost, CompletableFuture<Object> result) {
            this.handle = handle;
            this.onLost = onLost;
            this.result = result;
        }

        void run(Call method) {
            result.whenComplete((value, failure) -> endedElsewhere());
            if (result.isDone()) {
                return;
            }
            if (handle.isLost()) {
                // A grant that came after its own lease ran out: the method must not start without its lock.
                finish(
                        null,
                        new LockLostException(handle.key(), LockLostException.Reason.GRANTED_TOO_LATE, Duration.ZERO));
                return;
            }
            if (onLost == OnLockLost.THROW) {
                // Off the lock's internal thread, which must return quickly: the caller's stages run on this one.
                handle.onLost(lost -> ForkJoinPool.commonPool().execute(() -> result.completeExceptionally(lost)));
            }
            CompletionStage<?> stage;
            LockContext.Scope scope = LockContext.enter(handle);
            try {
                stage = stage(method.call());
            } catch (Throwable failure) {
                scope.close();
                finish(null, failure);
                return;
            }
            scope.close();
            running = futureOf(stage);
            if (result.isDone()) {
                endedElsewhere();
            }
            stage.whenComplete(this::finish);
        }

        /**
         * Releases without blocking, since the stage may complete on a thread of the Redis client, where a blocking
         * release would wait for an answer only that thread can read; completes the caller's future after it.
         */
        private void finish(@Nullable Object value, @Nullable Throwable failure) {
            if (!released.compareAndSet(false, true)) {
                return;
            }
            handle.releaseAsync().whenComplete((done, releaseFailure) -> {
                Throwable notReleased = releaseFailure == null ? null : unwrap(releaseFailure);
                if (failure != null) {
                    Throwable cause = unwrap(failure);
                    if (notReleased != null && !(notReleased instanceof IllegalStateException)) {
                        cause.addSuppressed(notReleased);
                    }
                    result.completeExceptionally(cause);
                } else if (notReleased instanceof LockLostException lost && onLost == OnLockLost.THROW) {
                    result.completeExceptionally(lost);
                } else {
                    logReleaseFailure(notReleased, "its work finished");
                    result.complete(value);
                }
            });
        }

        /** The caller's future was completed first (cancel, timeout, or a loss): stop the work, release now. */
        private void endedElsewhere() {
            CompletableFuture<?> work = running;
            if (work != null) {
                work.cancel(false);
            }
            if (released.compareAndSet(false, true)) {
                handle.releaseAsync().whenComplete((done, releaseFailure) -> {
                    Throwable notReleased = releaseFailure == null ? null : unwrap(releaseFailure);
                    // A loss is already what the caller's future failed with, or the caller gave up anyway.
                    if (!(notReleased instanceof LockLostException)) {
                        logReleaseFailure(notReleased, "its caller stopped waiting");
                    }
                });
            }
        }

        /**
         * Logs why a release after the work failed; nothing for a handle the work released itself (through {@link
         * LockContext}), which is what {@link LockHandle#close()} would have ignored.
         */
        private void logReleaseFailure(@Nullable Throwable notReleased, String when) {
            if (notReleased instanceof LockLostException lost) {
                log.warn(
                        "Work under lock '{}' finished after the lock was lost: {}",
                        PrintableText.of(handle.key()),
                        lost.getMessage());
            } else if (notReleased != null && !(notReleased instanceof IllegalStateException)) {
                log.warn(
                        "Lock '{}' could not be released after {}; it expires with its lease: {}",
                        PrintableText.of(handle.key()),
                        when,
                        notReleased.getMessage());
            }
        }

        private static @Nullable CompletableFuture<?> futureOf(CompletionStage<?> stage) {
            try {
                return stage.toCompletableFuture();
            } catch (UnsupportedOperationException notConvertible) {
                return null;
            }
        }
    }
}
