package io.distlock.redis.fuzz;

import io.distlock.tck.fuzz.FuzzLock;
import java.time.Duration;
import java.util.Map;

/**
 * How the workers configure the lock under test and its Redis client, passed to every worker process of a run as the
 * options of its {@link FuzzLock}.
 *
 * @param commandTimeout how long a Redis command may take before the lock gives up with a {@code
 *     LockBackendException}; on a cluster, also how long a caller waits on a dead master
 * @param replicaAcks how many replicas must acknowledge each grant of distlock; 0 for none
 */
record LockOptions(Duration commandTimeout, int replicaAcks) {

    /** Generous, so that a busy machine does not turn slow answers into errors. */
    static final LockOptions DEFAULT = new LockOptions(Duration.ofSeconds(10), 0);

    /** How long a grant waits for its replicas, when {@link #replicaAcks} asks for any. */
    static final Duration REPLICA_ACK_TIMEOUT = Duration.ofMillis(500);

    LockOptions {
        if (commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("the command timeout must be positive, but was " + commandTimeout);
        }
        if (replicaAcks < 0) {
            throw new IllegalArgumentException("replica acknowledgements must be 0 or more, but were " + replicaAcks);
        }
    }

    /** As a run's {@link FuzzLock#options()}. */
    Map<String, String> asMap() {
        return Map.of(
                "commandTimeoutMillis",
                Long.toString(commandTimeout.toMillis()),
                "replicaAcks",
                Integer.toString(replicaAcks));
    }

    /** The options of a run, as {@link #asMap()} gave them. */
    static LockOptions of(Map<String, String> options) {
        return new LockOptions(
                Duration.ofMillis(Long.parseLong(options.get("commandTimeoutMillis"))),
                Integer.parseInt(options.get("replicaAcks")));
    }
}
