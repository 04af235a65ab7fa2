package io.distlock.redis.fuzz;

import io.distlock.tck.fuzz.FuzzLock;
import io.distlock.tck.fuzz.SectionMix;

/**
 * The Redis lock a fuzz run drives, as {@link RedisFuzzLocks} builds it in the workers: distlock itself, or a
 * deliberately broken lock the checker must catch.
 */
enum LockKind {
    /** {@link io.distlock.redis.RedisLock}. */
    DISTLOCK("distlock RedisLock", SectionMix.EXCLUSIVE),
    /** {@link io.distlock.redis.FairLock}, the fair view of a {@link io.distlock.redis.RedisLock}. */
    FAIR("distlock FairLock", SectionMix.EXCLUSIVE),
    /**
     * Readers through {@link io.distlock.redis.ReadLock} ({@link io.distlock.redis.RedisLock#reading()}) and writers
     * through the {@link io.distlock.redis.RedisLock} itself, on the same keys.
     */
    READ_WRITE("distlock ReadLock + RedisLock (readers and writers)", SectionMix.READ_WRITE),
    /**
     * Permits of {@link io.distlock.redis.SemaphoreLock} ({@code Kind.SEMAPHORE.of(lock).permits(n)}), {@link
     * SectionMix#PERMITS_PER_KEY} per key, which every section takes.
     */
    SEMAPHORE("distlock SemaphoreLock (" + SectionMix.PERMITS_PER_KEY + " permits per key)", SectionMix.PERMITS),
    /**
     * Permits of a semaphore of one permit more than the checker counts: it admits one holder too many.
     */
    SEMAPHORE_ONE_TOO_MANY(
            "broken: a semaphore of " + (SectionMix.PERMITS_PER_KEY + 1) + " permits where "
                    + SectionMix.PERMITS_PER_KEY + " are allowed",
            SectionMix.PERMITS),
    /**
     * {@link io.distlock.redis.RedisLock} with local handover ({@link
     * io.distlock.redis.RedisLockBuilder#localHandoverWindow}): a release hands the key to a waiting thread of the same
     * worker without Redis.
     */
    LOCAL_HANDOVER("distlock RedisLock with local handover", SectionMix.EXCLUSIVE),
    /**
     * {@code SET NX PX} to take, an atomic compare-and-delete to release, but a release hands the key to a waiting
     * thread of the same worker without looking at its lease: a run of local handovers that outlives its lease.
     */
    LOCAL_HANDOVER_PAST_LEASE("broken: a run of local handovers never looks at its lease in Redis", SectionMix.CONTROL),
    /** {@link io.distlock.redis.Redlock} over the run's Redlock nodes. */
    REDLOCK("distlock Redlock", SectionMix.EXCLUSIVE),
    /**
     * {@link io.distlock.redis.RedisLock} on the first of the run's Redlock nodes alone: one node's grant counts as
     * held, although no majority has it.
     */
    ONE_NODE_OF_REDLOCK("broken: one Redlock node's grant counts as held", SectionMix.CONTROL),
    /** {@code SET NX PX} to take, a plain {@code DEL} to release: an outlived holder deletes its successor's lock. */
    RELEASE_WITHOUT_COMPARE("broken: release is DEL without comparing the owner", SectionMix.CONTROL),
    /**
     * {@code SET NX PX} to take, {@code GET}, compare, then {@code DEL} as separate commands to release, the seeds'
     * release: a lease that runs out between them lets the DEL remove the next holder's lock.
     */
    NON_ATOMIC_RELEASE("broken: release is GET, compare, DEL in separate commands", SectionMix.CONTROL),
    /**
     * Writers as in {@link #READ_WRITE}, but readers take a {@link io.distlock.redis.ReadLock} of another key prefix:
     * they share their key among themselves and never see a writer, nor a writer them.
     */
    READERS_APART_FROM_WRITERS(
            "broken: readers take a key of their own, never looking at the writer", SectionMix.READ_WRITE),
    /**
     * {@link io.distlock.redis.PathLock} ({@link io.distlock.redis.RedisLock#tree(String)}) on the paths of one random
     * tree: a path conflicts with itself, its ancestors and its descendants.
     */
    PATH("distlock PathLock (paths of one tree)", SectionMix.PATHS),
    /**
     * The paths of {@link #PATH}, each taken as a plain key of the {@link io.distlock.redis.RedisLock}: a path excludes
     * only itself, so an ancestor and its descendant are held at once.
     */
    PATH_EXACT_ONLY(
            "broken: each path a plain key, blind to its ancestors and descendants", SectionMix.PATHS_AS_PLAIN_KEYS);

    private final String label;
    private final SectionMix mix;

    LockKind(String label, SectionMix mix) {
        this.label = label;
        this.mix = mix;
    }

    /** This lock as a fuzz run drives it, with the default options. */
    FuzzLock lock() {
        return lock(LockOptions.DEFAULT);
    }

    /** This lock as a fuzz run drives it, its Redis client and its grants configured by {@code options}. */
    FuzzLock lock(LockOptions options) {
        return new FuzzLock(label, RedisFuzzLocks.class, name(), mix, options.asMap());
    }
}
