package io.distlock.redis.internal.waiting;

/** What ended a {@link Waiter#await}. */
public enum Turn {
    /** Try Redis now: the key was released, or its holder's lease must have run out. */
    TRY,
    /** The lock was handed over: the waiter holds it. */
    HANDED_OVER,
    /** The deadline came first. */
    TIMED_OUT,
    /** The lock is closing: stop waiting. */
    CLOSED
}
