package io.distlock.redis.internal.waiting;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One thread, or one acquisition that waits without a thread, waiting for a key in its {@link KeyQueue}. Its methods
 * other than deliver and unreserve are called by that waiter only. Its state changes under the queue's lock, by the
 * waiter or by the queue; the table of states and transitions is the {@link WaitingRoom}'s.
 */
public final class Waiter {

    /** A waiter that could not see the holder's lease (a key without expiry) looks again this often. */
    private static final long NO_EXPIRY_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    enum State {
        /** Trying Redis or about to; not eligible for a handover. */
        BUSY,
        /** Parked, eligible for a turn or a handover. */
        WAITING,
        /** Granted a turn it has not taken yet. */
        GRANTED,
        /** Picked by a releasing holder, which is handing the lock over. */
        RESERVED,
        /** The lock was handed over. */
        DELIVERED,
        /** Left the queue. */
        LEFT
    }

    private final KeyQueue queue;
    private final ReentrantLock guard;
    private final Condition wake;
    private final long leaseMillis;
    private final boolean tryFirst;

    private String token;
    private State state = State.BUSY;
    private long fencingToken;
    private long handedOverNanos;
    private long sleepNanos;
    private @Nullable Runnable onWake;

    /** @param guard the queue's lock */
    Waiter(KeyQueue queue, ReentrantLock guard, String token, long leaseMillis, boolean tryFirst) {
        this.queue = queue;
        this.guard = guard;
        this.wake = guard.newCondition();
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.tryFirst = tryFirst;
    }

    /** Whether the waiter should try Redis before waiting: nobody else waits, or nobody saw the holder's lease. */
    public boolean tryFirst() {
        return tryFirst;
    }

    /** The owner token for the waiter's next attempt, or of a lock handed over to it. */
    public String token() {
        guard.lock();
        try {
            return token;
        } finally {
            guard.unlock();
        }
    }

    /**
     * Gives the waiter a new token for its next attempts: the last one was abandoned, and its releases, which compare
     * the old token, may reach Redis after the next attempt. Called by the waiter, while it is busy trying, so never
     * while a holder hands it the key.
     */
    public void newToken(String next) {
        guard.lock();
        try {
            token = next;
        } finally {
            guard.unlock();
        }
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    /** The fencing token of the lock handed over; valid after {@link Turn#HANDED_OVER}. */
    public long fencingToken() {
        return fencingToken;
    }

    /** When the handover was sent, by the monotonic clock; valid after {@link Turn#HANDED_OVER}. */
    public long handedOverNanos() {
        return handedOverNanos;
    }

    /**
     * A failed attempt found the key held with {@code holderTtlMillis} left (negative: without expiry, so look again
     * after a while).
     */
    public void holderBusy(long holderTtlMillis) {
        long now = System.nanoTime();
        queue.holderExpiresBy(
                holderTtlMillis < 0
                        ? now + NO_EXPIRY_RECHECK_NANOS
                        : now + TimeUnit.MILLISECONDS.toNanos(holderTtlMillis + 1));
    }

    /**
     * An attempt went unanswered: look again in {@code nanos} (a release or a handover may come first). The other
     * waiters of the key in this process wait for that look too, so an outage is probed by one of them at a time.
     */
    public void lookAgainAfter(long nanos) {
        queue.holderExpiresBy(System.nanoTime() + nanos);
    }

    /**
     * Waits for a turn, a handover, the holder's lease to run out, or {@code deadlineNanos}.
     *
     * @param deadlineNanos by the monotonic clock, or {@link Waits#FOREVER}
     */
    public Turn await(long deadlineNanos) throws InterruptedException {
        guard.lock();
        try {
            while (true) {
                Turn turn = queue.turnDue(this, deadlineNanos);
                if (turn != null) {
                    return turn;
                }
                wake.awaitNanos(sleepNanos);
            }
        } finally {
            guard.unlock();
        }
    }

    /**
     * What {@link #await} would return now, without a thread to park: the turn if one is due, or else null, after
     * which the first event that could bring a turn runs {@code wakeUp} once. The caller must also look again after
     * {@link #sleepNanos()}, when the deadline or the holder's lease may be due.
     *
     * @param wakeUp runs under the queue's lock, so it must only hand the work on, never do it
     */
    public @Nullable Turn turnOrWakeUp(long deadlineNanos, Runnable wakeUp) {
        guard.lock();
        try {
            Turn turn = queue.turnDue(this, deadlineNanos);
            onWake = turn == null ? wakeUp : null;
            return turn;
        } finally {
            guard.unlock();
        }
    }

    /** How long the last {@link #turnOrWakeUp} that found no turn may sleep at most; Long.MAX_VALUE: no limit. */
    public long sleepNanos() {
        guard.lock();
        try {
            return sleepNanos;
        } finally {
            guard.unlock();
        }
    }

    /** Under the queue's lock: whether the waiter is in that state. */
    boolean is(State expected) {
        return state == expected;
    }

    /** Under the queue's lock: moves the waiter to another state. */
    void moveTo(State next) {
        state = next;
    }

    /** Under the queue's lock: the waiter found no turn and may sleep this long at most. */
    void sleepFor(long nanos) {
        sleepNanos = nanos;
    }

    /** Under the queue's lock: wakes the parked thread, or the acquisition that waits without one. */
    void signal() {
        wake.signal();
        Runnable wakeUp = onWake;
        if (wakeUp != null) {
            onWake = null;
            wakeUp.run();
        }
    }

    /**
     * Leaves the queue. A turn granted but not taken passes on; a lock still being handed over is the releaser's to
     * give back, since this waiter no longer wants it.
     *
     * @return true if the lock had been handed over to this waiter, who must now either use or release it
     */
    public boolean leave() {
        return queue.leave(this);
    }

    /**
     * Completes a handover: called by the releasing holder once Redis has given the lock to this waiter's token.
     *
     * @param othersWait whether waiters of other processes marked the key
     * @return false if the waiter left meanwhile, so the releaser must release the lock in its name
     */
    public boolean deliver(long fencingToken, long sentNanos, boolean othersWait) {
        guard.lock();
        try {
            queue.handedOver(othersWait);
            if (state != State.RESERVED) {
                return false;
            }
            this.fencingToken = fencingToken;
            this.handedOverNanos = sentNanos;
            state = State.DELIVERED;
            signal();
            return true;
        } finally {
            guard.unlock();
        }
    }

    /**
     * Completes a handover inside a run of local handovers, without Redis: the waiter takes the key under the run's
     * owner token.
     *
     * @param handedOverNanos when the key was handed over, from when the waiter's lease counts
     * @return false if the waiter left meanwhile, so the key is nobody's
     */
    public boolean deliverLocally(String runToken, long fencingToken, long handedOverNanos, boolean othersWait) {
        guard.lock();
        try {
            queue.handedOver(othersWait);
            if (state != State.RESERVED) {
                return false;
            }
            this.token = runToken;
            this.fencingToken = fencingToken;
            this.handedOverNanos = handedOverNanos;
            state = State.DELIVERED;
            signal();
            return true;
        } finally {
            guard.unlock();
        }
    }

    /**
     * Cancels a reservation whose handover did not happen, or may have happened: the waiter, if it still waits, gets a
     * turn to try Redis itself.
     *
     * @param newToken supplies a token for the waiter's next attempts when the old one may now own the key; null when
     *     the handover surely did not happen
     */
    public void unreserve(@Nullable Supplier<String> newToken) {
        guard.lock();
        try {
            if (newToken != null) {
                token = newToken.get();
            }
            if (state == State.RESERVED) {
                state = State.GRANTED;
                signal();
            }
        } finally {
            guard.unlock();
        }
    }
}
