package io.distlock;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Several keys held together, taken all or none by {@link Lock#tryAcquireAll} or {@link Lock#acquireAll}: one {@link
 * LockHandle} per key, each with its own lease, renewal, loss reporting and fencing token. Release it exactly once,
 * preferably with try-with-resources:
 *
 * <pre>{@code
 * try (MultiLockHandle held = lock.acquireAll(List.of("stock:" + from, "stock:" + to), lease)) {
 *     move(from, to, held.fencingToken("stock:" + from), held.fencingToken("stock:" + to));
 * }
 * }</pre>
 *
 * <p>Like a single handle, it is not tied to a thread: any thread may release or extend it.
 */
public interface MultiLockHandle extends AutoCloseable {

    /**
     * The keys held, each once, in the order they were taken: the order every caller takes them in.
     *
     * @return the keys, as the application named them
     */
    List<String> keys();

    /**
     * The handles, one per key, in the order of {@link #keys()}.
     *
     * @return the handles
     */
    List<LockHandle> handles();

    /**
     * The handle of one key.
     *
     * @param key one of {@link #keys()}
     * @return its handle
     * @throws IllegalArgumentException if {@code key} is not held by this handle
     */
    LockHandle handle(String key);

    /**
     * The fencing token of one key, as {@link LockHandle#fencingToken()} defines it.
     *
     * @param key one of {@link #keys()}
     * @return its fencing token
     * @throws IllegalArgumentException if {@code key} is not held by this handle
     */
    long fencingToken(String key);

    /**
     * Tells, without asking the store, whether any key is known to have lost its lock (see {@link
     * LockHandle#isLost()}).
     *
     * @return true once any of the keys is known to be lost
     */
    boolean isLost();

    /**
     * Registers a callback that runs once, when the first of the keys is found to have lost its lock, on an internal
     * thread; it must return quickly. It runs at once if a key is already known to be lost, and never after a normal
     * release.
     *
     * @param callback receives the exception describing the first loss
     */
    void onLost(Consumer<LockLostException> callback);

    /**
     * Sets the remaining lease of every key to {@code lease} from now, as {@link LockHandle#extend(Duration)} does for
     * one, in key order; it stops at the first key that fails.
     *
     * @param lease the new remaining lease, from 1 ms to {@link Lease#MAX_FIXED}
     * @throws IllegalArgumentException if {@code lease} is out of range
     * @throws IllegalStateException if this handle was already released
     * @throws LockLostException if a key's lock was lost; that key is not touched, and the keys after it not extended
     * @throws LockBackendException if the store could not be asked
     */
    void extend(Duration lease);

    /**
     * Releases every key, in the reverse of the order they were taken. Every key is released even when an earlier one
     * fails.
     *
     * @throws IllegalStateException if this handle was already released
     * @throws LockLostException if any key's lock was lost before release; the failures of the other keys, if any, are
     *     attached to it as suppressed
     * @throws LockBackendException if the store could not be asked for a key and none was lost; those keys expire with
     *     their leases
     */
    void release();

    /**
     * Releases like {@link #release()}, unless already released, in which case it does nothing.
     *
     * @throws LockLostException if any key's lock was lost before release
     * @throws LockBackendException if the store could not be asked
     */
    @Override
    void close();
}
