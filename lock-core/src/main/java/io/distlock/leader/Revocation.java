package io.distlock.leader;

/** Why an instance stopped being the leader. */
public enum Revocation {

    /**
     * The lock was lost: its lease ran out (the instance paused, or the store could not be reached for a whole lease),
     * or the store no longer had the key as this instance's. Another instance may lead now; this one tries again.
     */
    LOST,

    /** The election was closed, at shutdown for example: the lock is released, so another instance takes over at once. */
    CLOSED
}
