package io.distlock.boot35.support;

/**
 * A counter incremented by reading, pausing and writing back, which loses updates unless its callers take turns. An
 * application's bean extends it with a method that increments under {@code @DistributedLock}.
 */
public class RacyCounter {

    private volatile int count;

    /** @return the increments kept so far */
    public int count() {
        return count;
    }

    /** Reads the count, pauses a millisecond, so that concurrent callers overlap, and writes the count read plus one. */
    public void increment() {
        int read = count;
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        count = read + 1;
    }
}
