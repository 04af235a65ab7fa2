package io.distlock.store;

import java.time.Duration;

/**
 * How long a caller waits for the answer to one store call that runs on a worker thread: until its deadline plus
 * {@link BoundedAcquisition#GRACE_NANOS}, and never longer than the store's {@linkplain LeaseStore#callTimeout() call
 * timeout}; a caller without a deadline ({@code acquire}, or a try without a wait) waits the call timeout. The call
 * itself goes on without the caller.
 *
 * @param startedNanos when the call started, by {@link System#nanoTime()}
 * @param limitNanos when the caller stops waiting for its answer
 * @param byCallTimeout whether the call timeout set the limit, rather than the caller's deadline
 */
record CallBound(long startedNanos, long limitNanos, boolean byCallTimeout) {

    /**
     * The bound of a call that starts now.
     *
     * @param deadlineNanos when the caller's wait ends, by {@link System#nanoTime()}; ignored when unbounded
     * @param unbounded true for a caller without a deadline, bounded by the call timeout only
     */
    static CallBound of(LeaseStore store, long deadlineNanos, boolean unbounded) {
        long started = System.nanoTime();
        long byCallTimeout = started + store.callTimeout().toNanos();
        long byDeadline = deadlineNanos + BoundedAcquisition.GRACE_NANOS;
        if (unbounded || byDeadline - byCallTimeout >= 0) {
            return new CallBound(started, byCallTimeout, true);
        }
        return new CallBound(started, byDeadline, false);
    }

    /** How much longer the caller waits, never negative. */
    long remainingNanos() {
        return Math.max(0, limitNanos - System.nanoTime());
    }

    /** The bound for a message, such as {@code "within 1100 ms (the caller's wait)"}. */
    String describe() {
        return "within " + Duration.ofNanos(limitNanos - startedNanos).toMillis() + " ms (the "
                + (byCallTimeout ? "store's call timeout" : "caller's wait") + ")";
    }
}
