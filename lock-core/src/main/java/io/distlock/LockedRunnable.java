package io.distlock;

/**
 * Work that runs while a lock is held.
 *
 * @param <X> the checked exception the work may throw, or {@link RuntimeException}
 */
@FunctionalInterface
public interface LockedRunnable<X extends Throwable> {

    /**
     * Runs the work.
     *
     * @throws X the work's own failure, passed through unchanged
     */
    void run() throws X;
}
