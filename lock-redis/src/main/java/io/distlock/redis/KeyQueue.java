package io.distlock.redis;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The waiters of one key in this process, in order of arrival, for the {@link WaitingRoom}: the turns and handovers
 * among them, and what they last saw of the holder's lease. Every change of a waiter's state happens under the queue's
 * lock; the table of states and transitions is the room's.
 */
final class KeyQueue {

    /** A waiter that could not see the holder's lease (a key without expiry) looks again this often. */
    private static final long NO_EXPIRY_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** How long a waiter that tries because the holder's lease ran out keeps the others from trying too. */
    private static final long EXPIRY_CLAIM_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private enum State {
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

    private final String lockKey;
    private final WaitingRoom room;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

    /** A turn granted while every waiter was busy trying; the next one to wait takes it. */
    private boolean unclaimedTurn;

    private boolean holderExpiryKnown;
    private long holderExpiresByNanos;
    private int handoversWhileOthersWait;
    private boolean othersFirst;
    private boolean closing;

    KeyQueue(String lockKey, WaitingRoom room) {
        this.lockKey = lockKey;
        this.room = room;
    }

    String lockKey() {
        return lockKey;
    }

    Waiter join(String token, long leaseMillis) {
        lock.lock();
        try {
            Waiter waiter = new Waiter(this, token, leaseMillis, waiters.isEmpty() || !holderExpiryKnown);
            waiters.addLast(waiter);
            return waiter;
        } finally {
            lock.unlock();
        }
    }

    void grant() {
        lock.lock();
        try {
            for (Waiter waiter : waiters) {
                if (waiter.state == State.WAITING) {
                    waiter.state = State.GRANTED;
                    waiter.signal();
                    return;
                }
            }
            unclaimedTurn = !waiters.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    @Nullable
    Waiter reserve() {
        lock.lock();
        try {
            if (handoversWhileOthersWait >= WaitingRoom.MAX_HANDOVERS_WHILE_OTHERS_WAIT) {
                handoversWhileOthersWait = 0;
                othersFirst = true;
                return null;
            }
            for (Waiter waiter : waiters) {
                if (waiter.state == State.WAITING) {
                    waiter.state = State.RESERVED;
                    return waiter;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    boolean takeOthersFirst() {
        lock.lock();
        try {
            boolean taken = othersFirst;
            othersFirst = false;
            return taken;
        } finally {
            lock.unlock();
        }
    }

    void othersTurn(long nanos) {
        lock.lock();
        try {
            holderExpiryKnown = true;
            holderExpiresByNanos = System.nanoTime() + nanos;
            unclaimedTurn = false;
            for (Waiter waiter : waiters) {
                if (waiter.state == State.GRANTED) {
                    waiter.state = State.WAITING;
                }
                waiter.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    void close() {
        lock.lock();
        try {
            closing = true;
            waiters.forEach(waiter -> waiter.signal());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a waiter out; a turn granted to it but not taken passes on to the next waiter.
     *
     * @return true if the lock had been handed over to the waiter
     */
    boolean remove(Waiter waiter) {
        lock.lock();
        try {
            waiters.remove(waiter);
            boolean delivered = waiter.state == State.DELIVERED;
            State was = waiter.state;
            waiter.state = State.LEFT;
            if (was == State.GRANTED) {
                grant();
            }
            return delivered;
        } finally {
            lock.unlock();
        }
    }

    /** How many threads wait in this queue. */
    int size() {
        lock.lock();
        try {
            return waiters.size();
        } finally {
            lock.unlock();
        }
    }

    boolean isEmpty() {
        lock.lock();
        try {
            return waiters.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * One thread, or one acquisition that waits without a thread, waiting for a key. Its methods other than deliver and
     * unreserve are called by that waiter only.
     */
    final class Waiter {

        private final KeyQueue queue;
        private final Condition wake;
        private final long leaseMillis;
        private final boolean tryFirst;

        private String token;
        private State state = State.BUSY;
        private long fencingToken;
        private long handedOverNanos;
        private long sleepNanos;
        private @Nullable Runnable onWake;

        private Waiter(KeyQueue queue, String token, long leaseMillis, boolean tryFirst) {
            this.queue = queue;
            this.wake = queue.lock.newCondition();
            this.token = token;
            this.leaseMillis = leaseMillis;
            this.tryFirst = tryFirst;
        }

        /** Whether the waiter should try Redis before waiting: nobody else waits, or nobody saw the holder's lease. */
        boolean tryFirst() {
            return tryFirst;
        }

        /** The owner token for the waiter's next attempt, or of a lock handed over to it. */
        String token() {
            queue.lock.lock();
            try {
                return token;
            } finally {
                queue.lock.unlock();
            }
        }

        long leaseMillis() {
            return leaseMillis;
        }

        /** The fencing token of the lock handed over; valid after {@link WaitingRoom.Turn#HANDED_OVER}. */
        long fencingToken() {
            return fencingToken;
        }

        /** When the handover was sent, by the monotonic clock; valid after {@link WaitingRoom.Turn#HANDED_OVER}. */
        long handedOverNanos() {
            return handedOverNanos;
        }

        /**
         * A failed attempt found the key held with {@code holderTtlMillis} left (negative: without expiry, so look again
         * after a while).
         */
        void holderBusy(long holderTtlMillis) {
            long now = System.nanoTime();
            holderExpiresBy(
                    holderTtlMillis < 0
                            ? now + NO_EXPIRY_RECHECK_NANOS
                            : now + TimeUnit.MILLISECONDS.toNanos(holderTtlMillis + 1));
        }

        /** The holder's lease ends by {@code nanos} at the latest, by this process's clock. */
        private void holderExpiresBy(long nanos) {
            queue.lock.lock();
            try {
                queue.holderExpiryKnown = true;
                queue.holderExpiresByNanos = nanos;
            } finally {
                queue.lock.unlock();
            }
        }

        /**
         * Waits for a turn, a handover, the holder's lease to run out, or {@code deadlineNanos}.
         *
         * @param deadlineNanos by the monotonic clock, or {@link WaitingRoom#FOREVER}
         */
        WaitingRoom.Turn await(long deadlineNanos) throws InterruptedException {
            queue.lock.lock();
            try {
                while (true) {
                    WaitingRoom.Turn turn = turnDue(deadlineNanos);
                    if (turn != null) {
                        return turn;
                    }
                    wake.awaitNanos(sleepNanos);
                }
            } finally {
                queue.lock.unlock();
            }
        }

        /**
         * What {@link #await} would return now, without a thread to park: the turn if one is due, or else null, after
         * which the first event that could bring a turn runs {@code wakeUp} once. The caller must also look again
         * after {@link #sleepNanos()}, when the deadline or the holder's lease may be due.
         *
         * @param wakeUp runs under the queue's lock, so it must only hand the work on, never do it
         */
        WaitingRoom.@Nullable Turn turnOrWakeUp(long deadlineNanos, Runnable wakeUp) {
            queue.lock.lock();
            try {
                WaitingRoom.Turn turn = turnDue(deadlineNanos);
                onWake = turn == null ? wakeUp : null;
                return turn;
            } finally {
                queue.lock.unlock();
            }
        }

        /** How long the last {@link #turnOrWakeUp} that found no turn may sleep at most; Long.MAX_VALUE: no limit. */
        long sleepNanos() {
            queue.lock.lock();
            try {
                return sleepNanos;
            } finally {
                queue.lock.unlock();
            }
        }

        /** Under the queue's lock: the turn due now, or null with {@link #sleepNanos} set and the waiter WAITING. */
        private WaitingRoom.@Nullable Turn turnDue(long deadlineNanos) {
            if (state == State.DELIVERED) {
                return WaitingRoom.Turn.HANDED_OVER;
            }
            if ((queue.closing || queue.room.isClosed()) && state != State.RESERVED) {
                return WaitingRoom.Turn.CLOSED;
            }
            if (state == State.GRANTED) {
                state = State.BUSY;
                return WaitingRoom.Turn.TRY;
            }
            if (state != State.RESERVED && queue.unclaimedTurn) {
                queue.unclaimedTurn = false;
                state = State.BUSY;
                return WaitingRoom.Turn.TRY;
            }
            boolean forever = deadlineNanos == WaitingRoom.FOREVER;
            long now = System.nanoTime();
            if (!forever && now - deadlineNanos >= 0) {
                return WaitingRoom.Turn.TIMED_OUT;
            }
            long sleep = Long.MAX_VALUE;
            if (queue.holderExpiryKnown && state != State.RESERVED) {
                long untilExpiry = queue.holderExpiresByNanos - now;
                if (untilExpiry <= 0) {
                    // One waiter tries; the rest wait for its answer, which moves the expiry on.
                    queue.holderExpiresByNanos = now + EXPIRY_CLAIM_NANOS;
                    state = State.BUSY;
                    return WaitingRoom.Turn.TRY;
                }
                sleep = untilExpiry;
            }
            if (!forever) {
                sleep = Math.min(sleep, deadlineNanos - now);
            }
            if (state == State.BUSY) {
                state = State.WAITING;
            }
            sleepNanos = sleep;
            return null;
        }

        /** Under the queue's lock: wakes the parked thread, or the acquisition that waits without one. */
        private void signal() {
            wake.signal();
            Runnable wakeUp = onWake;
            if (wakeUp != null) {
                onWake = null;
                wakeUp.run();
            }
        }

        /**
         * Leaves the queue. A turn granted but not taken passes on; a lock still being handed over is the releaser's
         * to give back, since this waiter no longer wants it.
         *
         * @return true if the lock had been handed over to this waiter, who must now either use or release it
         */
        boolean leave() {
            return queue.room.leave(queue, this);
        }

        /**
         * Completes a handover: called by the releasing holder once Redis has given the lock to this waiter's token.
         *
         * @param othersWait whether waiters of other processes marked the key
         * @return false if the waiter left meanwhile, so the releaser must release the lock in its name
         */
        boolean deliver(long fencingToken, long sentNanos, boolean othersWait) {
            queue.lock.lock();
            try {
                queue.handoversWhileOthersWait = othersWait ? queue.handoversWhileOthersWait + 1 : 0;
                if (state != State.RESERVED) {
                    return false;
                }
                this.fencingToken = fencingToken;
                this.handedOverNanos = sentNanos;
                state = State.DELIVERED;
                signal();
                return true;
            } finally {
                queue.lock.unlock();
            }
        }

        /**
         * Cancels a reservation whose handover did not happen, or may have happened: the waiter, if it still waits,
         * gets a turn to try Redis itself.
         *
         * @param newToken supplies a token for the waiter's next attempts when the old one may now own the key; null
         *     when the handover surely did not happen
         */
        void unreserve(@Nullable Supplier<String> newToken) {
            queue.lock.lock();
            try {
                if (newToken != null) {
                    token = newToken.get();
                }
                if (state == State.RESERVED) {
                    state = State.GRANTED;
                    signal();
                }
            } finally {
                queue.lock.unlock();
            }
        }
    }
}
