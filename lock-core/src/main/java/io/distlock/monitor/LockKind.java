package io.distlock.monitor;

/** The kinds of lock whose acquisitions and holds a {@link LockObserver} hears of. */
public enum LockKind {
    /** The exclusive lock on a key, which is also the write side of the read-write lock. */
    EXCLUSIVE,
    /** The exclusive lock on a key, taken through its first-come-first-served queue. */
    FAIR,
    /** A reader's share of a key. */
    READ,
    /** A path of a tree, which conflicts with its ancestors and its descendants. */
    PATH,
    /** One of a semaphore key's permits. */
    SEMAPHORE
}
