package io.distlock.monitor;

import java.util.List;
import java.util.Map;

/**
 * A lock that can say what this instance holds and waits for, and how a key stands on its server, for operators'
 * views such as distlock's Actuator endpoint and health contributor. Owner tokens are never part of the answers.
 */
public interface InspectableLock {

    /**
     * The holds of this instance that are neither released nor known lost, read from memory without a server call.
     *
     * @return a snapshot, oldest hold first
     */
    List<HeldLock> heldLocks();

    /**
     * How many holds {@link #heldLocks()} would list, without building the list.
     *
     * @return the number of holds of this instance
     */
    int heldCount();

    /**
     * The threads of this instance waiting for a lock, by the key they wait for, read from memory.
     *
     * @return a snapshot: key (or, for a path lock, the tree's name) to the number of waiting threads; no zero counts
     */
    Map<String, Integer> waitingThreads();

    /**
     * How many threads of this instance wait for any lock.
     *
     * @return the sum of {@link #waitingThreads()}
     */
    int waitingCount();

    /**
     * Asks the server how a key stands: one read-only command, which takes no lock.
     *
     * @param key a key as the application passes it to {@link io.distlock.Lock}
     * @return the key's state
     * @throws IllegalArgumentException if the key is invalid, naming the rule
     * @throws UnsupportedOperationException if this lock cannot read one key's state (a Redlock)
     * @throws io.distlock.LockBackendException if the server did not answer in time
     */
    KeyState keyState(String key);

    /**
     * Checks the parts the lock depends on: a round trip to the server through the lock's script path, the renewal
     * thread, and the subscription that announces releases.
     *
     * @return what the checks found; it never throws for a server that is down, it says so
     */
    BackendState checkBackend();

    /**
     * Releases a key for an operator, whoever holds it, but only the hold the operator names by its fencing token (as
     * {@link #keyState(String)}'s store or the holder's {@link #heldLocks()} show it): a hold granted since, with a
     * larger token, is left alone, so that a release that races with a new grant cannot free the new holder. The
     * holder's instance is told at once where the store can tell it, and its hold is then lost with {@link
     * io.distlock.LockLostException.Reason#RELEASED_BY_OPERATOR}; otherwise it finds the key gone at its next renewal,
     * extension or release. Waiters may take the key at once. It is a way out of a key held by a process that is
     * stuck but not dead: the work under the lost hold may still be running.
     *
     * @param key a key as the application passes it to {@link io.distlock.Lock}
     * @param fencingToken the fencing token of the hold to release
     * @return true if that hold held the key and was released; false if the key was free, held under another fencing
     *     token, or held by readers
     * @throws IllegalArgumentException if the key is invalid, naming the rule
     * @throws UnsupportedOperationException if this lock's store cannot release a hold for an operator; by default
     * @throws io.distlock.LockBackendException if the server did not answer in time
     */
    default boolean releaseForOperator(String key, long fencingToken) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot release a key for an operator");
    }
}
