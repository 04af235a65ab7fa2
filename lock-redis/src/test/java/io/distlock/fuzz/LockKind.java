package io.distlock.fuzz;

/** The lock a fuzz run drives: distlock itself, or a deliberately broken lock the checker must catch. */
enum LockKind {
    /** {@link io.distlock.redis.RedisLock}. */
    DISTLOCK("distlock RedisLock"),
    /** {@link io.distlock.redis.FairLock}, the fair view of a {@link io.distlock.redis.RedisLock}. */
    FAIR("distlock FairLock"),
    /**
     * Readers through {@link io.distlock.redis.ReadLock} ({@link io.distlock.redis.RedisLock#reading()}) and writers
     * through the {@link io.distlock.redis.RedisLock} itself, on the same keys.
     */
    READ_WRITE("distlock ReadLock + RedisLock (readers and writers)"),
    /** {@link io.distlock.redis.Redlock} over the run's Redlock nodes. */
    REDLOCK("distlock Redlock"),
    /**
     * {@link io.distlock.redis.RedisLock} on the first of the run's Redlock nodes alone: one node's grant counts as
     * held, although no majority has it.
     */
    ONE_NODE_OF_REDLOCK("broken: one Redlock node's grant counts as held"),
    /** {@code SET NX PX} to take, a plain {@code DEL} to release: an outlived holder deletes its successor's lock. */
    RELEASE_WITHOUT_COMPARE("broken: release is DEL without comparing the owner"),
    /**
     * {@code SET NX PX} to take, {@code GET}, compare, then {@code DEL} as separate commands to release, the seeds'
     * release: a lease that runs out between them lets the DEL remove the next holder's lock.
     */
    NON_ATOMIC_RELEASE("broken: release is GET, compare, DEL in separate commands"),
    /**
     * Writers as in {@link #READ_WRITE}, but readers take a {@link io.distlock.redis.ReadLock} of another key prefix:
     * they share their key among themselves and never see a writer, nor a writer them.
     */
    READERS_APART_FROM_WRITERS("broken: readers take a key of their own, never looking at the writer"),
    /**
     * {@link io.distlock.redis.PathLock} ({@link io.distlock.redis.RedisLock#tree(String)}) on the paths of one random
     * tree: a path conflicts with itself, its ancestors and its descendants.
     */
    PATH("distlock PathLock (paths of one tree)"),
    /**
     * The paths of {@link #PATH}, each taken as a plain key of the {@link io.distlock.redis.RedisLock}: a path excludes
     * only itself, so an ancestor and its descendant are held at once.
     */
    PATH_EXACT_ONLY("broken: each path a plain key, blind to its ancestors and descendants"),
    /**
     * {@link io.distlock.store.StoreLock} on a store other than Redis, built in each worker by the run's
     * {@link FuzzLockFactory}.
     */
    STORE("distlock StoreLock"),
    /**
     * {@link #STORE} over a {@link ShortLeaseStore}: the store keeps each key for a thousandth of the lease the lock
     * counts on, so the next holder takes it while the last one is still inside.
     */
    SHORT_LEASE_STORE("broken: StoreLock whose store keeps a key for a thousandth of the lease");

    private final String label;

    LockKind(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** True if some of the run's sections read, through a read lock, while the others write. */
    boolean readWrite() {
        return this == READ_WRITE || this == READERS_APART_FROM_WRITERS;
    }

    /** True if the lock is not on Redis but in a store that the run's {@link FuzzLockFactory} connects to. */
    boolean inStore() {
        return this == STORE || this == SHORT_LEASE_STORE;
    }

    /** True if the run's sections lock paths of a {@link PathTree}, judged by the {@link PathChecker}. */
    boolean paths() {
        return this == PATH || this == PATH_EXACT_ONLY;
    }
}
