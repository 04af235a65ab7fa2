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
}
