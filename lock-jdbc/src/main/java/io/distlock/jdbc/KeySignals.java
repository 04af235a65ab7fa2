package io.distlock.jdbc;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * This JVM's waiters for each key, in line: only the first one asks the database, and a release through the same store
 * wakes it at once. The others wait without polling until they are first, so that a contended key costs the database
 * one poller per process rather than one per thread, and a release wakes one thread rather than all of them. Waiters
 * in other processes still poll.
 */
final class KeySignals {

    private final ConcurrentHashMap<String, Deque<Waiter>> lines = new ConcurrentHashMap<>();

    /** Puts a waiter at the back of the key's line; the caller unregisters it when its acquisition ends. */
    Waiter register(String key) {
        Waiter waiter = new Waiter();
        lines.compute(key, (k, line) -> {
            Deque<Waiter> joined = line == null ? new ArrayDeque<>() : line;
            joined.addLast(waiter);
            return joined;
        });
        return waiter;
    }

    /** Whether any waiter of this JVM is in the key's line. */
    boolean hasLine(String key) {
        return lines.containsKey(key);
    }

    /** Whether the waiter is first in the key's line, the one that asks the database. */
    boolean isFirst(String key, Waiter waiter) {
        Deque<Waiter> line = lines.get(key);
        if (line == null) {
            return false;
        }
        synchronized (line) {
            return line.peekFirst() == waiter;
        }
    }

    /** Takes the waiter out of the line; if it was first, the next one becomes first and is woken. */
    void unregister(String key, Waiter waiter) {
        Waiter[] next = new Waiter[1];
        lines.computeIfPresent(key, (k, line) -> {
            synchronized (line) {
                boolean wasFirst = line.peekFirst() == waiter;
                line.remove(waiter);
                next[0] = wasFirst ? line.peekFirst() : null;
                return line.isEmpty() ? null : line;
            }
        });
        wake(next[0]);
    }

    /** Wakes the first waiter of the key. */
    void released(String key) {
        Deque<Waiter> line = lines.get(key);
        if (line != null) {
            Waiter first;
            synchronized (line) {
                first = line.peekFirst();
            }
            wake(first);
        }
    }

    private static void wake(@Nullable Waiter waiter) {
        if (waiter != null) {
            waiter.wake();
        }
    }

    /** One acquisition's wake-up; a wake that comes while it is not waiting is kept for its next wait. */
    static final class Waiter {

        private final Semaphore wakeUps = new Semaphore(0);

        void wake() {
            if (wakeUps.availablePermits() == 0) {
                wakeUps.release();
            }
        }

        /**
         * Waits until woken or until the time passed.
         *
         * @return true if woken
         */
        boolean await(long nanos) throws InterruptedException {
            return wakeUps.tryAcquire(nanos, TimeUnit.NANOSECONDS);
        }
    }
}
