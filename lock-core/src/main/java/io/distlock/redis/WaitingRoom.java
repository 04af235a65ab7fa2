package io.distlock.redis;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Where the threads of this process wait for locks: one first-come-first-served queue per Redis key.
 *
 * <p>Two things end a wait. A holder of this process that releases the key hands it straight to the longest waiting
 * thread ({@link #reserveNext}), in the same Redis round trip, so the key never looks free in between. Any other
 * release (announced over pub/sub, or a release that could not hand over) grants the longest waiting thread a turn to
 * try Redis; the others keep waiting, so the threads of one process never rush Redis together for the same key, and
 * a thread that arrives while others wait never overtakes them.
 *
 * <p>Waiters also try again on their own once the holder's lease, as last seen in Redis, must have run out, so a lost
 * notification costs latency, never liveness.
 *
 * <p>While other processes wait for a key, it is handed over inside this process at most {@link
 * #MAX_HANDOVERS_WHILE_OTHERS_WAIT} times in a row. Then the release reserves the key for the other processes for a
 * moment ({@link #othersTurn}), and this process's waiters do not try before that reservation ends, so that the other
 * processes, whose waiters learn of the release one pub/sub hop later, really get their turn.
 *
 * <p>A {@link Waiter} moves through these states; every transition happens under its queue's lock.
 *
 * <table>
 *   <caption>Waiter states and transitions</caption>
 *   <tr><th>From</th><th>Event</th><th>To</th></tr>
 *   <tr><td>(new)</td><td>{@link #enter}</td><td>BUSY</td></tr>
 *   <tr><td>BUSY</td><td>{@link Waiter#await} parks the thread</td><td>WAITING</td></tr>
 *   <tr><td>WAITING</td><td>{@link #released}: a release without handover, here or announced</td><td>GRANTED</td></tr>
 *   <tr><td>WAITING</td><td>a turn nobody claimed, or the holder's lease ran out: {@code await} returns {@link
 *       Turn#TRY}</td><td>BUSY</td></tr>
 *   <tr><td>GRANTED</td><td>{@code await} returns {@link Turn#TRY}</td><td>BUSY</td></tr>
 *   <tr><td>GRANTED</td><td>{@link #othersTurn}: the key is reserved for other processes</td><td>WAITING</td></tr>
 *   <tr><td>WAITING</td><td>{@link #reserveNext} by a releasing holder of this process</td><td>RESERVED</td></tr>
 *   <tr><td>RESERVED</td><td>{@link Waiter#deliver}: Redis gave the key to the waiter's token</td>
 *       <td>DELIVERED</td></tr>
 *   <tr><td>RESERVED</td><td>{@link Waiter#unreserve}: the handover failed or may have</td><td>GRANTED</td></tr>
 *   <tr><td>any</td><td>{@link Waiter#leave}: a GRANTED turn passes to the next waiter; a DELIVERED lock is the
 *       leaver's to use or release</td><td>LEFT</td></tr>
 * </table>
 *
 * <p>{@link #close()} makes every {@code await} but a RESERVED one return {@link Turn#CLOSED}.
 */
final class WaitingRoom {

    /** How long a waiter that tries because the holder's lease ran out keeps the others from trying too. */
    private static final long EXPIRY_CLAIM_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * How many times in a row a key may be handed over inside this process while other processes wait for it; then it
     * is released in Redis so that they get their chance.
     */
    static final int MAX_HANDOVERS_WHILE_OTHERS_WAIT = 8;

    /** The deadline of a wait without one. */
    static final long FOREVER = Long.MAX_VALUE;

    private final ConcurrentHashMap<String, Queue> queues = new ConcurrentHashMap<>();
    private final ReleaseSignals readers = new ReleaseSignals();
    private volatile boolean closed;

    /**
     * Joins the queue of a key; {@link Waiter#leave()} must follow.
     *
     * @param token the waiter's owner token, used for its own attempts and for a handover to it
     * @param leaseMillis the lease the waiter asked for
     */
    Waiter enter(String lockKey, String token, long leaseMillis) {
        Waiter[] joined = new Waiter[1];
        queues.compute(lockKey, (key, existing) -> {
            Queue queue = existing == null ? new Queue(key) : existing;
            joined[0] = queue.join(token, leaseMillis);
            return queue;
        });
        return joined[0];
    }

    /** Where the readers of this process wait for releases; they never queue here. */
    ReleaseSignals readers() {
        return readers;
    }

    /** A lock on the key was released without a handover, by this process or (over pub/sub) by another. */
    void released(String lockKey) {
        readers.released(lockKey);
        Queue queue = queues.get(lockKey);
        if (queue != null) {
            queue.grant();
        }
    }

    /**
     * A release reserved the key for other processes for {@code nanos}: this process's waiters try again only once
     * that reservation ended, unless a release wakes them first.
     */
    void othersTurn(String lockKey, long nanos) {
        Queue queue = queues.get(lockKey);
        if (queue != null) {
            queue.othersTurn(nanos);
        }
    }

    /** Wakes every waiter to fail: the lock is closing. Waiters that enter later fail at once. */
    void close() {
        closed = true;
        readers.releasedAll();
        queues.values().forEach(Queue::close);
    }

    /** Wakes one waiter of every key, after notifications may have been missed (a resubscription). */
    void releasedAll() {
        readers.releasedAll();
        queues.values().forEach(Queue::grant);
    }

    /**
     * Picks the longest waiting thread of the key to hand the lock to, unless nobody waits here or the key was handed
     * over too often in a row while other processes wait for it. The waiter stays reserved until {@link
     * Waiter#deliver} or {@link Waiter#unreserve}.
     */
    @Nullable
    Waiter reserveNext(String lockKey) {
        Queue queue = queues.get(lockKey);
        return queue == null ? null : queue.reserve();
    }

    /**
     * Whether the last {@link #reserveNext} of the key refused because of the handover bound, so the release must
     * reserve the key for other processes; asking clears it.
     */
    boolean othersFirst(String lockKey) {
        Queue queue = queues.get(lockKey);
        return queue != null && queue.takeOthersFirst();
    }

    /** What ended a {@link Waiter#await}. */
    enum Turn {
        /** Try Redis now: the key was released, or its holder's lease must have run out. */
        TRY,
        /** The lock was handed over: the waiter holds it. */
        HANDED_OVER,
        /** The deadline came first. */
        TIMED_OUT,
        /** The lock is closing: stop waiting. */
        CLOSED
    }

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

    /** The waiters of one key in this process, in order of arrival. */
    final class Queue {

        private final String lockKey;
        private final ReentrantLock lock = new ReentrantLock();
        private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

        /** A turn granted while every waiter was busy trying; the next one to wait takes it. */
        private boolean unclaimedTurn;

        private boolean holderExpiryKnown;
        private long holderExpiresByNanos;
        private int handoversWhileOthersWait;
        private boolean othersFirst;
        private boolean closing;

        private Queue(String lockKey) {
            this.lockKey = lockKey;
        }

        private Waiter join(String token, long leaseMillis) {
            lock.lock();
            try {
                Waiter waiter = new Waiter(this, token, leaseMillis, waiters.isEmpty() || !holderExpiryKnown);
                waiters.addLast(waiter);
                return waiter;
            } finally {
                lock.unlock();
            }
        }

        private void grant() {
            lock.lock();
            try {
                for (Waiter waiter : waiters) {
                    if (waiter.state == State.WAITING) {
                        waiter.state = State.GRANTED;
                        waiter.wake.signal();
                        return;
                    }
                }
                unclaimedTurn = !waiters.isEmpty();
            } finally {
                lock.unlock();
            }
        }

        private @Nullable Waiter reserve() {
            lock.lock();
            try {
                if (handoversWhileOthersWait >= MAX_HANDOVERS_WHILE_OTHERS_WAIT) {
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

        private boolean takeOthersFirst() {
            lock.lock();
            try {
                boolean taken = othersFirst;
                othersFirst = false;
                return taken;
            } finally {
                lock.unlock();
            }
        }

        private void othersTurn(long nanos) {
            lock.lock();
            try {
                holderExpiryKnown = true;
                holderExpiresByNanos = System.nanoTime() + nanos;
                unclaimedTurn = false;
                for (Waiter waiter : waiters) {
                    if (waiter.state == State.GRANTED) {
                        waiter.state = State.WAITING;
                    }
                    waiter.wake.signal();
                }
            } finally {
                lock.unlock();
            }
        }

        private void close() {
            lock.lock();
            try {
                closing = true;
                waiters.forEach(waiter -> waiter.wake.signal());
            } finally {
                lock.unlock();
            }
        }

        private void remove(Waiter waiter) {
            waiters.remove(waiter);
            if (waiter.state == State.GRANTED) {
                // Its turn passes on to the next waiter.
                waiter.state = State.LEFT;
                grant();
            }
        }
    }

    /** One thread waiting for a key. Its methods other than deliver and unreserve are called by that thread only. */
    final class Waiter {

        private final Queue queue;
        private final Condition wake;
        private final long leaseMillis;
        private final boolean tryFirst;

        private String token;
        private State state = State.BUSY;
        private long fencingToken;
        private long handedOverNanos;

        private Waiter(Queue queue, String token, long leaseMillis, boolean tryFirst) {
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

        /** The fencing token of the lock handed over; valid after {@link Turn#HANDED_OVER}. */
        long fencingToken() {
            return fencingToken;
        }

        /** When the handover was sent, by the monotonic clock; valid after {@link Turn#HANDED_OVER}. */
        long handedOverNanos() {
            return handedOverNanos;
        }

        /** A failed attempt saw the holder's lease end by {@code nanos} at the latest, by this process's clock. */
        void holderExpiresBy(long nanos) {
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
         * @param deadlineNanos by the monotonic clock, or {@link #FOREVER}
         */
        Turn await(long deadlineNanos) throws InterruptedException {
            boolean forever = deadlineNanos == FOREVER;
            queue.lock.lock();
            try {
                while (true) {
                    if (state == State.DELIVERED) {
                        return Turn.HANDED_OVER;
                    }
                    if ((queue.closing || closed) && state != State.RESERVED) {
                        return Turn.CLOSED;
                    }
                    if (state == State.GRANTED) {
                        state = State.BUSY;
                        return Turn.TRY;
                    }
                    if (state != State.RESERVED && queue.unclaimedTurn) {
                        queue.unclaimedTurn = false;
                        state = State.BUSY;
                        return Turn.TRY;
                    }
                    long now = System.nanoTime();
                    if (!forever && now - deadlineNanos >= 0) {
                        return Turn.TIMED_OUT;
                    }
                    long sleep = Long.MAX_VALUE;
                    if (queue.holderExpiryKnown && state != State.RESERVED) {
                        long untilExpiry = queue.holderExpiresByNanos - now;
                        if (untilExpiry <= 0) {
                            // One waiter tries; the rest wait for its answer, which moves the expiry on.
                            queue.holderExpiresByNanos = now + EXPIRY_CLAIM_NANOS;
                            state = State.BUSY;
                            return Turn.TRY;
                        }
                        sleep = untilExpiry;
                    }
                    if (!forever) {
                        sleep = Math.min(sleep, deadlineNanos - now);
                    }
                    if (state == State.BUSY) {
                        state = State.WAITING;
                    }
                    wake.awaitNanos(sleep);
                }
            } finally {
                queue.lock.unlock();
            }
        }

        /**
         * Leaves the queue. A turn granted but not taken passes on; a lock still being handed over is the releaser's
         * to give back, since this waiter no longer wants it.
         *
         * @return true if the lock had been handed over to this waiter, who must now either use or release it
         */
        boolean leave() {
            boolean[] delivered = new boolean[1];
            queues.computeIfPresent(queue.lockKey, (key, existing) -> {
                existing.lock.lock();
                try {
                    existing.remove(this);
                    delivered[0] = state == State.DELIVERED;
                    state = State.LEFT;
                    return existing.waiters.isEmpty() ? null : existing;
                } finally {
                    existing.lock.unlock();
                }
            });
            return delivered[0];
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
                wake.signal();
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
                    wake.signal();
                }
            } finally {
                queue.lock.unlock();
            }
        }
    }
}
