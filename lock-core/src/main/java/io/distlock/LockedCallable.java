package io.distlock;

/**
 * Work that returns a value and runs while a lock is held.
 *
 * @param <T> the result type
 * @param <X> the checked exception the work may throw, or {@link RuntimeException}
 */
@FunctionalInterface
public interface LockedCallable<T, X extends Throwable> {

    /**
     * Runs the work.
     *
     * @return the result
     * @throws X the work's own failure, passed through unchanged
     */
    T call() throws X;
}
