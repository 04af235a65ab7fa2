package io.distlock;

import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The asynchronous acquisitions that {@link Lock} gives every implementation: a blocking wait moved to a thread of its
 * own, and the stage that fails when the lock was not acquired. Both keep the promise that a grant nobody takes any
 * more is released again.
 */
final class AsyncAcquisitions {

    private static final Logger log = LoggerFactory.getLogger(AsyncAcquisitions.class);

    /** How many asynchronous waits may run at once where each needs a platform thread (before Java 21). */
    static final int MAX_PLATFORM_WAITS = 512;

    private static final Executor WAITING = waitingThreads();

    private AsyncAcquisitions() {}

    /** The default {@link Lock#tryAcquireAsync}: the blocking wait on a thread of its own, interrupted by a cancel. */
    static CompletionStage<Optional<LockHandle>> onThreadOfItsOwn(Lock lock, String key, Lease lease, Duration wait) {
        CompletableFuture<Optional<LockHandle>> result = new CompletableFuture<>();
        if (key != null && LockContext.current(key).isPresent()) {
            result.completeExceptionally(heldByCallersScope(key));
            return result;
        }
        AtomicReference<@Nullable Thread> runner = new AtomicReference<>();
        result.whenComplete((acquired, failure) -> {
            if (result.isCancelled()) {
                synchronized (runner) {
                    Thread waiting = runner.get();
                    if (waiting != null) {
                        waiting.interrupt();
                    }
                }
            }
        });
        Runnable waitForTheLock = () -> {
            runner.set(Thread.currentThread());
            try {
                if (result.isDone()) {
                    return;
                }
                Optional<LockHandle> acquired = lock.tryAcquire(key, lease, wait);
                if (!result.complete(acquired)) {
                    acquired.ifPresent(AsyncAcquisitions::giveBack);
                }
            } catch (InterruptedException cancelled) {
                result.cancel(false);
            } catch (Throwable failure) {
                result.completeExceptionally(failure);
            } finally {
                synchronized (runner) {
                    runner.set(null);
                    // A cancel that came after the wait ended must not interrupt the pool's next wait.
                    Thread.interrupted();
                }
            }
        };
        try {
            WAITING.execute(waitForTheLock);
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new RejectedExecutionException(MAX_PLATFORM_WAITS + " asynchronous waits are"
                    + " under way in this JVM, the most that run at once on a Java without virtual threads; lock '"
                    + PrintableText.of(key) + "' was not tried. Run on Java 21 or later, or wait with fewer at once"));
        }
        return result;
    }

    /**
     * The default {@link Lock#acquireAsync}: empty becomes {@link LockNotAcquiredException}, and a cancel of the result
     * cancels the acquisition.
     */
    static CompletionStage<LockHandle> orNotAcquired(
            CompletionStage<Optional<LockHandle>> acquisition, String key, Duration wait) {
        CompletableFuture<Optional<LockHandle>> source = acquisition.toCompletableFuture();
        CompletableFuture<LockHandle> result = new CompletableFuture<>();
        source.whenComplete((acquired, failure) -> {
            if (failure != null) {
                result.completeExceptionally(unwrap(failure));
            } else if (acquired.isEmpty()) {
                result.completeExceptionally(new LockNotAcquiredException(key, wait));
            } else if (!result.complete(acquired.get())) {
                giveBack(acquired.get());
            }
        });
        result.whenComplete((handle, failure) -> {
            if (result.isCancelled()) {
                source.cancel(false);
            }
        });
        return result;
    }

    /** Why an asynchronous acquisition of a key that a scope of the calling thread holds fails at once. */
    static IllegalStateException heldByCallersScope(String key) {
        return new IllegalStateException(
                "lock '" + PrintableText.of(key) + "' is held by a scope of the calling thread, and an "
                        + "asynchronous acquisition never joins that hold (the scope may end before the stage does); waiting "
                        + "for it from inside the scope might never end. Acquire the key outside the scope, or pass the "
                        + "scope's handle to the asynchronous work");
    }

    /** Releases a lock that was granted after its caller stopped waiting for it. */
    static void giveBack(LockHandle handle) {
        try {
            handle.release();
        } catch (RuntimeException e) {
            log.warn(
                    "Lock '{}' was granted after its asynchronous acquisition ended and could not be released; it "
                            + "expires with its lease: {}",
                    handle.key(),
                    e.getMessage());
        }
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * A virtual thread per wait where the JDK has them (21 and later, found by reflection since distlock runs on 17);
     * elsewhere a shared pool of at most {@link #MAX_PLATFORM_WAITS} daemon platform threads, let go when idle, that
     * refuses a wait past that rather than start threads without end.
     */
    private static Executor waitingThreads() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            builder =
                    builderType.getMethod("name", String.class, long.class).invoke(builder, "distlock-async-wait-", 0L);
            ThreadFactory virtual =
                    (ThreadFactory) builderType.getMethod("factory").invoke(builder);
            return task -> virtual.newThread(task).start();
        } catch (ReflectiveOperationException beforeJava21) {
            AtomicLong count = new AtomicLong();
            return new ThreadPoolExecutor(
                    0, MAX_PLATFORM_WAITS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), work -> {
                        Thread thread = new Thread(work, "distlock-async-wait-" + count.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    });
        }
    }
}
