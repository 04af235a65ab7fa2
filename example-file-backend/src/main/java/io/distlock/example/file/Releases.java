package io.distlock.example.file;

/**
 * Wakes this JVM's waiters when a key is released here: a waiter in another process learns of a release when it next
 * polls.
 */
final class Releases {

    private long count;

    synchronized void released() {
        count++;
        notifyAll();
    }

    synchronized long count() {
        return count;
    }

    /** Waits until a release after {@code seen}, or the time is up. */
    synchronized void awaitAfter(long seen, long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        long left;
        while (count == seen && (left = end - System.nanoTime()) > 0) {
            wait(Math.max(1, left / 1_000_000));
        }
    }
}
