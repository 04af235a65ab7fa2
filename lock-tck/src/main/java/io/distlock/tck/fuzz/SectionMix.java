package io.distlock.tck.fuzz;

/**
 * What a fuzz run's critical sections do: how they take the lock, on which keys, and under which leases. The engine
 * needs no more of the lock than this; the lock itself is its {@link FuzzLockFactory}'s business.
 */
public enum SectionMix {
    /**
     * Every way of taking a lock that the {@link io.distlock.Lock} API offers, re-entry and several keys at once among
     * them, on keys that exclude only themselves; mostly long leases, with short ones that sections outlive and
     * auto-renewed ones, some held across several renewals. For a lock that must never let two holders in.
     */
    EXCLUSIVE,
    /**
     * As {@link #EXCLUSIVE}, with most sections (70 %) reading through the lock under test's reader lock ({@link
     * LockUnderTest.Builder#readers}) and the others writing: readers may be inside together, never with a writer.
     */
    READ_WRITE,
    /**
     * As {@link #EXCLUSIVE}, with every section taking one of its key's permits through the lock under test's
     * semaphore ({@link LockUnderTest.Builder#readers}): at most {@link #PERMITS_PER_KEY} sections may be inside one
     * key at once, which the checker counts.
     */
    PERMITS,
    /**
     * For a deliberately broken lock, which the checker must catch: no nested sections nor sections under several keys
     * (a broken lock need not re-enter), and many more short leases, since an outlived lease is where a broken release
     * goes wrong.
     */
    CONTROL,
    /**
     * The paths of one random tree ({@link FuzzTarget#treeName()}), written in any of their spellings, each conflicting
     * with itself, its ancestors and its descendants; judged by the checker of paths. Handles report the canonical
     * path as their key.
     */
    PATHS,
    /**
     * The paths of {@link #PATHS}, each taken as a plain key (the tree's name, {@code /} and the canonical path): the
     * control of a lock blind to ancestors and descendants.
     */
    PATHS_AS_PLAIN_KEYS;

    /** How many permits each key of a {@link #PERMITS} run has: the most sections inside it at once. */
    public static final int PERMITS_PER_KEY = 3;

    /** True if some of the run's sections read, through a reader lock, while the others write. */
    boolean readWrite() {
        return this == READ_WRITE;
    }

    /** True if the run's sections lock paths of a {@link PathTree}, judged by the {@link PathLedger}. */
    boolean paths() {
        return this == PATHS || this == PATHS_AS_PLAIN_KEYS;
    }
}
