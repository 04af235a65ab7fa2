package io.distlock.bench.contender;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A contender measured through its non-blocking API: an acquisition returns a stage at once, and no thread of the
 * caller waits for the lock. Its blocking {@link #tryAcquire} waits for that same stage, so the
 * worker's self-check and the cluster tests exercise the path the benchmark measures.
 */
public interface AsyncContender extends Contender {

    /**
     * Starts taking the lock on {@code key}, waiting up to {@code wait} for its holder to release it, without blocking
     * the calling thread.
     *
     * @param key the lock's name, without the contender's own prefix
     * @param lease how long Redis keeps the lock if it is never released
     * @param wait how long to wait at most
     * @return a stage that completes with how to release it, or with null if the lock stayed taken for the whole wait
     */
    CompletionStage<@Nullable AsyncRelease> tryAcquireAsync(String key, Duration lease, Duration wait);

    @Override
    default @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        AsyncRelease release = await(tryAcquireAsync(key, lease, wait));
        return release == null ? null : () -> joined(release.release());
    }

    private static <T> T await(CompletionStage<T> stage) throws InterruptedException {
        try {
            return stage.toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw unwrapped(e.getCause());
        }
    }

    private static void joined(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().join();
        } catch (CompletionException | CancellationException e) {
            throw unwrapped(e.getCause() == null ? e : e.getCause());
        }
    }

    private static RuntimeException unwrapped(Throwable failure) {
        return failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure);
    }

    /**
     * Releases one asynchronous acquisition, from any thread: without blocking it where the contender's API can
     * release asynchronously, else by releasing before it returns the completed stage.
     */
    @FunctionalInterface
    interface AsyncRelease {

        /**
         * Starts releasing the lock.
         *
         * @return a stage that completes once released, or fails if the contender reports that it no longer held it
         */
        CompletionStage<?> release();
    }
}
