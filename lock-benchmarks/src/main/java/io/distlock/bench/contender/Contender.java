package io.distlock.bench.contender;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One lock implementation under test, with its own Redis connections, seen through the one operation every benchmark
 * needs: take a key, then let it go.
 */
public interface Contender extends AutoCloseable {

    /**
     * Takes the lock on {@code key}, waiting up to {@code wait} for its holder to release it.
     *
     * @param key the lock's name, without the contender's own prefix
     * @param lease how long Redis keeps the lock if it is never released
     * @param wait how long to wait at most
     * @return how to release it, or null if the lock stayed taken for the whole wait
     * @throws InterruptedException if interrupted while waiting
     */
    @Nullable
    Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException;

    /**
     * Takes the lock on {@code key} shared with other readers; a contender without a read lock takes it exclusively,
     * which is what a read costs with a plain lock.
     *
     * @param key the lock's name, without the contender's own prefix
     * @param lease how long Redis keeps the read lock if it is never released
     * @param wait how long to wait at most
     * @return how to release it, or null if a writer held it for the whole wait
     * @throws InterruptedException if interrupted while waiting
     */
    @Nullable
    default Release tryAcquireRead(String key, Duration lease, Duration wait) throws InterruptedException {
        return tryAcquire(key, lease, wait);
    }

    /**
     * Takes locks that stay held until the contender closes or their lease ends, as the background that a measurement
     * runs against. Only the path contenders implement it, which are the only ones the path scenario runs.
     *
     * @param keys the locks to hold, none conflicting with another
     * @param lease how long Redis keeps each of them
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a key could not be taken
     * @throws UnsupportedOperationException for a contender that is not a path lock
     */
    default void hold(List<String> keys, Duration lease) throws InterruptedException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " holds no background locks");
    }

    /** Closes the contender's clients. */
    @Override
    void close();

    /** Releases one acquisition; must be called by the thread that acquired, since some peers insist on it. */
    @FunctionalInterface
    interface Release {

        /** Releases the lock; throws if the contender reports that it no longer held it. */
        void release();
    }
}
