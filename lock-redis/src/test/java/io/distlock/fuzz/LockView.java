package io.distlock.fuzz;

import java.util.List;

/**
 * Where the checker's scripts learn the state of a lock key: its value and remaining lease, {@code holder} and
 * {@code ttl} as {@code GET} and {@code PTTL} give them, which every judgement of {@link SectionChecker} starts from.
 * On one Redis the scripts read the key themselves, atomically with their judgement ({@link SameRedisLockView}); with
 * the locks on a Redis Cluster, apart from the checker's Redis, the key is read from its master just before
 * ({@link ClusterLockView}).
 */
interface LockView {

    /**
     * Lua that defines the locals {@code holder} (false if the key is gone), {@code ttl}, and {@code ttl_at}, the
     * checker's Redis time (ms) from which the ttl counts, for the script after, whose first argument is the section's
     * owner token. Claims end at the absolute time {@code ttl_at + ttl - 2}, so a script that Redis runs slowly does not
     * stretch them past the lease.
     */
    String prelude();

    /** Keys the prelude reads, passed after the checker's own. */
    List<String> keys(String lockKey);

    /**
     * Arguments the prelude reads, passed after the checker's own.
     *
     * @throws Unreadable if the lock key could not be read
     */
    List<String> args(String lockKey);

    /**
     * The lock key could not be read from the Redis that holds the locks, even after waiting as long as a failover
     * takes: the section goes unchecked from there on. Not a failure of the checker, whose own records stay complete.
     */
    final class Unreadable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Unreadable(String lockKey, Throwable cause) {
            super("the checker could not read lock key " + lockKey + ": " + cause.getMessage(), cause);
        }
    }
}
