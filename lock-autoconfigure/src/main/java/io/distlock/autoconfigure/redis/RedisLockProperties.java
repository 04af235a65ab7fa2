package io.distlock.autoconfigure.redis;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the Redis backend alone, under {@code distlock.redis}. Their former names, {@code distlock.replica-ack.*}
 * and {@code distlock.cluster.*}, are deprecated and still apply where the new name is not set ({@link
 * RedisSettings}).
 */
@ConfigurationProperties("distlock.redis")
public class RedisLockProperties {

    private final ReplicaAck replicaAck = new ReplicaAck();

    private final Cluster cluster = new Cluster();

    /**
     * Let each key's fencing counter expire this long after the key's latest grant, with fencing tokens taken from
     * Redis's clock so that they keep growing when a key comes back; unset keeps one counter per key for ever, with
     * tokens counted from 1. The same on every instance.
     */
    private @Nullable Duration deleteCountersUnusedFor;

    /**
     * Turn on local handover for hot keys: a release hands the key to the next waiting thread of this instance without
     * a Redis round trip, while the key's lease in Redis, kept this much longer than the lease asked, covers the
     * receiver's lease; from 1ms to 1min, unset for off. Not with replica acknowledgements or a Redlock.
     */
    private @Nullable Duration localHandoverWindow;

    /**
     * Waiting for replicas to acknowledge each grant.
     *
     * @return the settings
     */
    public ReplicaAck getReplicaAck() {
        return replicaAck;
    }

    /**
     * How long a key's fencing counter outlives the key's latest grant.
     *
     * @return the time, or null to keep the counters for ever
     */
    public @Nullable Duration getDeleteCountersUnusedFor() {
        return deleteCountersUnusedFor;
    }

    /**
     * Sets how long a key's fencing counter outlives the key's latest grant.
     *
     * @param deleteCountersUnusedFor at least 1 s, or null to keep the counters for ever
     */
    public void setDeleteCountersUnusedFor(@Nullable Duration deleteCountersUnusedFor) {
        this.deleteCountersUnusedFor = deleteCountersUnusedFor;
    }

    /**
     * How much longer than the lease asked a key handed over locally is kept in Redis.
     *
     * @return the window, or null when local handover is off
     */
    public @Nullable Duration getLocalHandoverWindow() {
        return localHandoverWindow;
    }

    /**
     * Sets how much longer than the lease asked a key handed over locally is kept in Redis, which turns local handover
     * on.
     *
     * @param localHandoverWindow from 1 ms to 1 min, or null for no local handover
     */
    public void setLocalHandoverWindow(@Nullable Duration localHandoverWindow) {
        this.localHandoverWindow = localHandoverWindow;
    }

    /**
     * Redis Cluster.
     *
     * @return the settings
     */
    public Cluster getCluster() {
        return cluster;
    }

    /** Waiting for replicas to acknowledge each grant, against losing locks at a failover (Redis WAIT). */
    public static class ReplicaAck {

        /** How many replicas must acknowledge a grant before it counts; 0 waits for none. */
        private @Nullable Integer replicas;

        /** How long a grant waits for the replicas; shorter than spring.data.redis.timeout. */
        private @Nullable Duration timeout;

        /**
         * How many replicas must acknowledge a grant.
         *
         * @return the number, or null when unset
         */
        public @Nullable Integer getReplicas() {
            return replicas;
        }

        /**
         * Sets how many replicas must acknowledge a grant.
         *
         * @param replicas 0 or more
         */
        public void setReplicas(@Nullable Integer replicas) {
            this.replicas = replicas;
        }

        /**
         * How long a grant waits for the replicas.
         *
         * @return the wait, or null when unset
         */
        public @Nullable Duration getTimeout() {
            return timeout;
        }

        /**
         * Sets how long a grant waits for the replicas.
         *
         * @param timeout at least 1 ms
         */
        public void setTimeout(@Nullable Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** Redis Cluster. */
    public static class Cluster {

        /**
         * Whether to announce releases with sharded pub/sub (Redis 7 and later) within the key's shard, not to every
         * node; the same on every instance.
         */
        private @Nullable Boolean shardedPubSub;

        /**
         * Whether releases are announced with sharded pub/sub.
         *
         * @return the setting, or null when unset
         */
        public @Nullable Boolean getShardedPubSub() {
            return shardedPubSub;
        }

        /**
         * Sets whether releases are announced with sharded pub/sub.
         *
         * @param shardedPubSub the setting
         */
        public void setShardedPubSub(@Nullable Boolean shardedPubSub) {
            this.shardedPubSub = shardedPubSub;
        }
    }
}
