package io.distlock.autoconfigure.redis;

import io.distlock.autoconfigure.DistributedLockProperties;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The Redis backend's settings as they apply: each from {@code distlock.redis.*} when set, else from its deprecated
 * name, else its default; checked here, naming the property that gave the value.
 *
 * @param replicas how many replicas acknowledge each grant
 * @param replicasProperty the property that gave {@code replicas}
 * @param acknowledgementTimeout how long a grant waits for them
 * @param shardedPubSub whether releases are announced with sharded pub/sub
 * @param deleteCountersUnusedFor how long a key's fencing counter outlives its latest grant, or null for ever
 * @param localHandoverWindow how much longer than its lease a key handed over locally is kept, or null for no local
 *     handover
 */
record RedisSettings(
        int replicas,
        String replicasProperty,
        Duration acknowledgementTimeout,
        boolean shardedPubSub,
        @Nullable Duration deleteCountersUnusedFor,
        @Nullable Duration localHandoverWindow) {

    /** The property of {@link #deleteCountersUnusedFor}. */
    static final String DELETE_COUNTERS = "distlock.redis.delete-counters-unused-for";

    /** The property of {@link #localHandoverWindow}. */
    static final String LOCAL_HANDOVER = "distlock.redis.local-handover-window";

    private static final String REPLICAS = "distlock.redis.replica-ack.replicas";
    private static final String TIMEOUT = "distlock.redis.replica-ack.timeout";

    static RedisSettings of(RedisLockProperties redis, DistributedLockProperties deprecated) {
        Integer replicas = redis.getReplicaAck().getReplicas();
        String replicasProperty = REPLICAS;
        if (replicas == null && deprecated.getReplicaAck().getReplicas() != null) {
            replicas = deprecated.getReplicaAck().getReplicas();
            replicasProperty = "distlock.replica-ack.replicas";
        }
        Duration timeout = redis.getReplicaAck().getTimeout();
        String timeoutProperty = TIMEOUT;
        if (timeout == null && deprecated.getReplicaAck().getTimeout() != null) {
            timeout = deprecated.getReplicaAck().getTimeout();
            timeoutProperty = "distlock.replica-ack.timeout";
        }
        int replicasValue = replicas == null ? 0 : replicas;
        Duration timeoutValue = timeout == null ? Duration.ofMillis(100) : timeout;
        if (replicasValue < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    replicasProperty, replicasValue, "must be 0 (do not wait) or more");
        }
        if (timeoutValue.toMillis() < 1) {
            throw new InvalidConfigurationPropertyValueException(timeoutProperty, timeoutValue, "must be at least 1ms");
        }
        Duration deleteCounters = redis.getDeleteCountersUnusedFor();
        if (deleteCounters != null && deleteCounters.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    DELETE_COUNTERS, deleteCounters, "must be at least 1s, or unset to keep the counters");
        }
        Duration window = redis.getLocalHandoverWindow();
        if (window != null && (window.toMillis() < 1 || window.compareTo(Duration.ofMinutes(1)) > 0)) {
            throw new InvalidConfigurationPropertyValueException(
                    LOCAL_HANDOVER, window, "must be from 1ms to 1min, or unset for no local handover");
        }
        if (window != null && replicasValue > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    LOCAL_HANDOVER,
                    window,
                    "must be unset while " + replicasProperty + " is " + replicasValue
                            + ": a handover without Redis cannot wait for replicas; set one of the two");
        }
        return new RedisSettings(
                replicasValue,
                replicasProperty,
                timeoutValue,
                first(
                        redis.getCluster().getShardedPubSub(),
                        deprecated.getCluster().getShardedPubSub(),
                        true),
                deleteCounters,
                window);
    }

    private static boolean first(@Nullable Boolean set, @Nullable Boolean deprecated, boolean otherwise) {
        return set != null ? set : deprecated != null ? deprecated : otherwise;
    }
}
