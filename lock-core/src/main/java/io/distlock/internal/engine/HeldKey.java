package io.distlock.internal.engine;

/**
 * What a backend's hold tells about itself without asking its store: the key, the owner and the fencing token the
 * store gave it. A {@link HoldHandle} answers these from the hold directly.
 */
public interface HeldKey {

    /**
     * The key held, as the caller named it.
     *
     * @return the key
     */
    String key();

    /**
     * The fencing token the store gave this hold.
     *
     * @return the token; it grows with every new hold of the key
     */
    long fencingToken();

    /**
     * What the store knows this hold's owner by.
     *
     * @return the owner token
     */
    String ownerToken();

    /**
     * Records the thread that holds the key now, for inspection.
     *
     * @param threadName the thread's name
     */
    void boundTo(String threadName);
}
