package io.distlock.jdbc;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes this JVM's waiters for a key when a release through the same store frees it, so that they need not wait for
 * their next poll. Waiters in other processes still poll.
 */
final class KeySignals {

    private final ConcurrentHashMap<String, Set<Waiter>> waiters = new ConcurrentHashMap<>();

    /** Registers a waiter for the key; the caller unregisters it when its acquisition ends. */
    Waiter register(String key) {
        Waiter waiter = new Waiter();
        waiters.compute(key, (k, set) -> {
            Set<Waiter> registered = set == null ? ConcurrentHashMap.newKeySet() : set;
            registered.add(waiter);
            return registered;
        });
        return waiter;
    }

    void unregister(String key, Waiter waiter) {
        waiters.computeIfPresent(key, (k, set) -> {
            set.remove(waiter);
            return set.isEmpty() ? null : set;
        });
    }

    /** Wakes every waiter of the key. */
    void released(String key) {
        Set<Waiter> registered = waiters.get(key);
        if (registered != null) {
            registered.forEach(Waiter::wake);
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
