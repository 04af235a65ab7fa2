package io.distlock.store;

import io.distlock.LockBackendException;
import io.distlock.internal.text.PrintableText;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Bounds the store calls that one {@link StoreLock}'s callers have under way on worker threads, counting those whose
 * caller already gave up and that still run. A caller stops waiting at its deadline, but its call goes on until the
 * store answers; with a store that stopped answering, every new attempt would otherwise leave one more thread behind.
 * Past the bound an acquisition fails at once, without asking the store.
 */
final class CallsUnderWay {

    private final Semaphore permits;
    private final int max;

    /** @param max the most calls under way at once, at least 1 */
    CallsUnderWay(int max) {
        this.permits = new Semaphore(max);
        this.max = max;
    }

    /**
     * Starts a call on a worker thread; its permit comes back when the call ends, however it ends.
     *
     * @throws LockBackendException if {@code max} calls are under way already; the call was not started
     */
    <T> CompletableFuture<T> start(String key, LeaseStore store, Supplier<T> call) {
        if (!permits.tryAcquire()) {
            throw new LockBackendException(
                    key,
                    store.describe() + " has " + max + " calls of this lock under way without an answer, the most it"
                            + " starts at once, so '" + PrintableText.of(key) + "' was not tried; the store is slow or"
                            + " unreachable (StoreLockBuilder.maxCallsUnderWay sets the bound)",
                    null);
        }
        CompletableFuture<T> started;
        try {
            started = CompletableFuture.supplyAsync(call, StoreThreads.work());
        } catch (RejectedExecutionException e) {
            permits.release();
            throw e;
        }
        started.whenComplete((answer, failure) -> permits.release());
        return started;
    }
}
