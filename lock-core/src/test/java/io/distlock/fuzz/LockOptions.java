package io.distlock.fuzz;

import java.time.Duration;

/**
 * How the workers configure the lock under test and its Redis client, passed to every worker process of a run.
 *
 * @param commandTimeout how long a Redis command may take before the lock gives up with a {@code
 *     LockBackendException}; on a cluster, also how long a caller waits on a dead master
 */
record LockOptions(Duration commandTimeout) {

    /** Generous, so that a busy machine does not turn slow answers into errors. */
    static final LockOptions DEFAULT = new LockOptions(Duration.ofSeconds(10));

    LockOptions {
        if (commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("the command timeout must be positive, but was " + commandTimeout);
        }
    }
}
