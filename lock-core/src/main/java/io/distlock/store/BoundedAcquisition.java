package io.distlock.store;

import io.distlock.LockBackendException;
import io.distlock.internal.text.PrintableText;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store calls of one waiting acquisition, made on the lock's worker threads so that the caller stops waiting on
 * time whatever the store, its driver, its pool or its client's retries do: at its deadline plus a short grace, at the
 * store's {@linkplain LeaseStore#callTimeout() call timeout}, or at once when interrupted. An attempt given up on is
 * left to its worker, which then gives back a grant that arrived late and closes the store's acquisition, in that
 * order, so that nothing stays held and whatever the attempt left in the store is removed.
 *
 * <p>Used by one thread at a time, as {@link LeaseStore.Acquisition} is: a call is never started while another one is
 * under way.
 */
final class BoundedAcquisition implements AutoCloseable {

    /** How long after its deadline a caller waits for an attempt under way: well within the 200 ms Lock promises. */
    static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** How long the caller waits for the store's acquisition to close, never past its deadline plus this. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final Logger log = LoggerFactory.getLogger(BoundedAcquisition.class);

    /**
     * One answer of the store.
     *
     * @param lease the grant, or null when another owner holds the key or the caller's wait ended first
     * @param sentNanos when the request that got the grant was sent, by {@link System#nanoTime()}
     */
    record Taken(@Nullable StoreLease lease, long sentNanos) {}

    private final LeaseStore.Acquisition attempt;
    private final LeaseStore store;
    private final CallsUnderWay calls;
    private final String key;
    private final long deadlineNanos;
    private final boolean unbounded;
    private @Nullable CompletableFuture<Taken> underWay;
    private boolean answered;

    /**
     * @param attempt the store's acquisition, which this one closes
     * @param calls the bound on the lock's calls under way, which each try takes part in
     * @param deadlineNanos when the caller's wait ends, by {@link System#nanoTime()}; ignored when unbounded
     * @param unbounded true for a wait without end ({@code acquire}), bounded by the store's call timeout only
     */
    BoundedAcquisition(
            LeaseStore.Acquisition attempt,
            LeaseStore store,
            CallsUnderWay calls,
            String key,
            long deadlineNanos,
            boolean unbounded) {
        this.attempt = attempt;
        this.calls = calls;
        this.store = store;
        this.key = key;
        this.deadlineNanos = deadlineNanos;
        this.unbounded = unbounded;
    }

    /**
     * Tries once to take the key, waiting for the store's answer as long as the caller's wait and the call timeout
     * allow.
     *
     * @return the answer; its lease is null when another owner holds the key, or when the wait ended during the call
     *     after the store had answered an earlier one
     * @throws LockBackendException if the store failed, or did not answer in time and never answered this acquisition,
     *     or the lock has as many calls under way as it allows
     * @throws InterruptedException if the thread was interrupted; the call is left to its worker
     */
    Taken tryTake() throws InterruptedException {
        CallBound bound = CallBound.of(store, deadlineNanos, unbounded);
        CompletableFuture<Taken> call = calls.start(key, store, () -> {
            long sent = System.nanoTime();
            return new Taken(attempt.tryTake(), sent);
        });
        underWay = call;
        try {
            Taken taken = call.get(bound.remainingNanos(), TimeUnit.NANOSECONDS);
            underWay = null;
            answered = true;
            return taken;
        } catch (ExecutionException e) {
            underWay = null;
            throw failure(e.getCause());
        } catch (TimeoutException e) {
            if (answered && !unbounded && System.nanoTime() - deadlineNanos >= 0) {
                // The wait ended during a call after the store had answered: an ordinary "not acquired".
                return new Taken(null, bound.startedNanos());
            }
            throw new LockBackendException(
                    key,
                    store.describe() + " did not answer an attempt to acquire '" + PrintableText.of(key) + "' "
                            + bound.describe(),
                    null);
        }
    }

    /**
     * Waits for the next chance, as {@link LeaseStore.Acquisition#awaitChance(long)}; no call is under way then.
     *
     * @param until when the wait ends, by {@link System#nanoTime()}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void awaitChance(long until) throws InterruptedException {
        attempt.awaitChance(until);
    }

    /**
     * Closes the store's acquisition after the call under way, if any, has ended, giving back a grant that it brings.
     * The caller waits a moment for a quick close, never past its deadline and the grace; the rest goes on without it.
     */
    @Override
    public void close() {
        CompletableFuture<Taken> pending = underWay;
        if (pending != null) {
            pending.whenComplete((taken, error) -> {
                if (taken != null && taken.lease() != null) {
                    giveBack(taken.lease());
                }
                closeAttempt();
            });
            return;
        }
        CompletableFuture<Void> closing = CompletableFuture.runAsync(this::closeAttempt, StoreThreads.work());
        long now = System.nanoTime();
        long until = unbounded ? now + CLOSE_WAIT_NANOS : earlier(now + CLOSE_WAIT_NANOS, deadlineNanos + GRACE_NANOS);
        try {
            closing.get(Math.max(0, until - now), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Closing goes on, or failed and logged: the caller's outcome does not depend on it.
        }
    }

    private void giveBack(StoreLease late) {
        try {
            late.release();
        } catch (RuntimeException e) {
            log.warn("Could not give back key '{}', granted after its caller gave up; its lease frees it", key, e);
        }
    }

    private void closeAttempt() {
        try {
            attempt.close();
        } catch (RuntimeException e) {
            log.warn("Could not end an acquisition of key '{}' in {}", key, store.describe(), e);
        }
    }

    /** What a store call that failed on a worker thread throws to its caller: the store's own exception. */
    static RuntimeException failure(Throwable cause) {
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(cause);
    }

    private static long earlier(long a, long b) {
        return a - b < 0 ? a : b;
    }
}
