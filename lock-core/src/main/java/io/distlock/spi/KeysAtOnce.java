package io.distlock.spi;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Implemented by a {@link Lock} whose store can take several keys in one atomic step. {@link Lock#tryAcquireAll},
 * {@link Lock#acquireAll} and {@link Lock#callWithLocks} try that step first, and take the keys one by one in their
 * global order only when the step cannot be made or found a key held and the caller will wait. For lock
 * implementations; applications call {@link Lock}'s methods.
 */
public interface KeysAtOnce {

    /**
     * Tries once, without waiting, to take every key in one atomic step of the store: all of them, or none.
     *
     * @param keys distinct, valid keys, in the order every caller takes them
     * @param lease the lease of each key's hold
     * @return the handles, or the first key found held; null when these keys cannot be taken in one step here (for
     *     example they live on different servers, or a scope of this thread holds one of them), and nothing was sent
     * @throws LockBackendException if the store could not be asked; nothing is held then
     * @throws IllegalStateException if the lock is closed
     */
    @Nullable
    Taken tryAcquireAtOnce(List<String> keys, Lease lease);

    /**
     * What one step on several keys came to.
     *
     * @param handles the handle of every key, in the order of the keys, or null if a key was held
     * @param busyKey the first key found held by another owner, or null if every key was taken
     */
    record Taken(
            @Nullable List<LockHandle> handles, @Nullable String busyKey) {

        /**
         * Every key was taken.
         *
         * @param handles the handle of every key, in the order of the keys
         * @return the outcome
         */
        public static Taken all(List<LockHandle> handles) {
            return new Taken(List.copyOf(handles), null);
        }

        /**
         * Nothing was taken, since the key was held.
         *
         * @param key the first key found held
         * @return the outcome
         */
        public static Taken busy(String key) {
            return new Taken(null, key);
        }
    }
}
