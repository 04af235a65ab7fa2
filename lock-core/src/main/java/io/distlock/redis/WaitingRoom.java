package io.distlock.redis;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where the threads of this process wait for locks, one queue per Redis key.
 *
 * <p>A release (announced locally or over pub/sub) grants one permit to one waiter, which then tries Redis; the others
 * keep waiting, so the threads of one process never rush Redis together for the same key. A thread that arrives while
 * others already wait queues behind them instead of overtaking. Waiters also try again on their own once the holder's
 * lease, as last seen in Redis, must have run out, so a lost notification costs latency, never liveness.
 */
final class WaitingRoom {

    /** How long a waiter that tries because the holder's lease ran out keeps the others from trying too. */
    private static final long EXPIRY_CLAIM_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ConcurrentHashMap<String, Queue> queues = new ConcurrentHashMap<>();

    /**
     * Joins the queue of a key; {@link Queue#leave()} must follow.
     *
     * @return the queue, and whether the caller should try Redis before waiting
     */
    Entry enter(String lockKey) {
        boolean[] tryFirst = new boolean[1];
        Queue queue = queues.compute(lockKey, (key, existing) -> {
            Queue joined = existing == null ? new Queue(key) : existing;
            tryFirst[0] = joined.join();
            return joined;
        });
        return new Entry(queue, tryFirst[0]);
    }

    /** A lock on the key was released (by this process or, over pub/sub, by any process). */
    void released(String lockKey) {
        Queue queue = queues.get(lockKey);
        if (queue != null) {
            queue.grant();
        }
    }

    /** Wakes one waiter of every key, after notifications may have been missed (a resubscription). */
    void releasedAll() {
        queues.values().forEach(Queue::grant);
    }

    /**
     * A waiter's place in a queue.
     *
     * @param queue the queue of the key
     * @param tryFirst whether the waiter should try Redis before waiting: nobody else waits, or nobody has seen the
     *     holder's lease yet
     */
    record Entry(Queue queue, boolean tryFirst) {}

    /** The waiters of one key in this process. */
    final class Queue {

        private final String lockKey;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition granted = lock.newCondition();

        private int waiters;
        private boolean permit;
        private boolean holderExpiryKnown;
        private long holderExpiresByNanos;

        private Queue(String lockKey) {
            this.lockKey = lockKey;
        }

        private boolean join() {
            lock.lock();
            try {
                waiters++;
                return waiters == 1 || !holderExpiryKnown;
            } finally {
                lock.unlock();
            }
        }

        /** A failed attempt saw the holder's lease end by {@code nanos} at the latest, by this process's clock. */
        void holderExpiresBy(long nanos) {
            lock.lock();
            try {
                holderExpiryKnown = true;
                holderExpiresByNanos = nanos;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Waits until this waiter is granted a permit, the holder's lease must have run out, or {@code deadlineNanos}.
         *
         * @return true if the caller should try Redis now, false if its deadline came first
         */
        boolean await(long deadlineNanos) throws InterruptedException {
            lock.lock();
            try {
                while (!permit) {
                    long now = System.nanoTime();
                    if (holderExpiryKnown && now - holderExpiresByNanos >= 0) {
                        // One waiter tries; the rest wait for its answer, which moves the expiry on.
                        holderExpiresByNanos = now + EXPIRY_CLAIM_NANOS;
                        return true;
                    }
                    long until = holderExpiryKnown && holderExpiresByNanos - deadlineNanos < 0
                            ? holderExpiresByNanos
                            : deadlineNanos;
                    if (until - now <= 0) {
                        return false;
                    }
                    granted.awaitNanos(until - now);
                }
                permit = false;
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** Leaves the queue; a permit nobody used passes on to the next waiter. */
        void leave() {
            queues.computeIfPresent(lockKey, (key, queue) -> queue.depart() ? null : queue);
        }

        private boolean depart() {
            lock.lock();
            try {
                waiters--;
                if (waiters == 0) {
                    return true;
                }
                if (permit) {
                    granted.signal();
                }
                return false;
            } finally {
                lock.unlock();
            }
        }

        private void grant() {
            lock.lock();
            try {
                if (waiters > 0) {
                    permit = true;
                    granted.signal();
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
