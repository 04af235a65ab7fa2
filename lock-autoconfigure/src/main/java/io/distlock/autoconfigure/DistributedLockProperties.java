package io.distlock.autoconfigure;

import io.distlock.Lease;
import io.distlock.OnLockLost;
import io.distlock.spi.InstanceNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Configuration of distlock, under {@code distlock.*}, for every backend. Invalid values fail application start-up,
 * naming the property. The settings of one backend's connection ({@code distlock.redlock.*}, {@code distlock.jdbc.*},
 * {@code distlock.zookeeper.*}) are bound by that backend's configuration, in its own package.
 */
@ConfigurationProperties("distlock")
public class DistributedLockProperties implements InitializingBean, EnvironmentAware {

    /** Whether to configure distlock; when false, @DistributedLock methods run without a lock, with a warning. */
    private boolean enabled = true;

    /**
     * Store of the Lock bean, by its id: redis, jdbc, zookeeper, in-memory for tests, or the id of a backend of another
     * module; unset means the only one present.
     */
    private @Nullable String backend;

    /** Prefix of every lock key in Redis and of the release channel; not blank, without '{' or '}'. */
    private String keyPrefix = "distlock:";

    /**
     * Name stored with every lock this instance holds, which the Actuator endpoint and LockNotAcquiredException show
     * as the holder; 1 to 100 printable characters without '+' or '*'. Unset means spring.application.name@host (the
     * process id in place of an unset application name).
     */
    private @Nullable String instanceName;

    private @Nullable String applicationName;

    /**
     * How long a @DistributedLock method waits for its lock when the annotation sets neither waitSeconds nor waitTime;
     * 0 tries once.
     */
    private Duration defaultWait = Duration.ofSeconds(5);

    /**
     * Fixed lease of @DistributedLock methods that set neither leaseSeconds nor lease; unset means an auto-renewed
     * lease.
     */
    private @Nullable Duration defaultLease;

    /** What a @DistributedLock method does when it finishes after its lock was lost: THROW or LOG. */
    private OnLockLost onLost = OnLockLost.THROW;

    private final Watchdog watchdog = new Watchdog();

    private final Aspect aspect = new Aspect();

    private final Shutdown shutdown = new Shutdown();

    private final ReplicaAck replicaAck = new ReplicaAck();

    private final Cluster cluster = new Cluster();

    private final Metrics metrics = new Metrics();

    private final Observations observations = new Observations();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public @Nullable String getBackend() {
        return backend;
    }

    public void setBackend(@Nullable String backend) {
        this.backend = backend;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public @Nullable String getInstanceName() {
        return instanceName;
    }

    public void setInstanceName(@Nullable String instanceName) {
        this.instanceName = instanceName;
    }

    /**
     * The name every lock of this application stores with its holds: {@code distlock.instance-name}, or else {@code
     * spring.application.name@host} ({@link InstanceNames#ofThisProcess}).
     *
     * @return a valid instance name
     */
    public String effectiveInstanceName() {
        return instanceName != null ? instanceName : InstanceNames.ofThisProcess(applicationName);
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.applicationName = environment.getProperty("spring.application.name");
    }

    public Duration getDefaultWait() {
        return defaultWait;
    }

    public void setDefaultWait(Duration defaultWait) {
        this.defaultWait = defaultWait;
    }

    public @Nullable Duration getDefaultLease() {
        return defaultLease;
    }

    public void setDefaultLease(@Nullable Duration defaultLease) {
        this.defaultLease = defaultLease;
    }

    public OnLockLost getOnLost() {
        return onLost;
    }

    public void setOnLost(OnLockLost onLost) {
        this.onLost = onLost;
    }

    public Watchdog getWatchdog() {
        return watchdog;
    }

    public Aspect getAspect() {
        return aspect;
    }

    public Shutdown getShutdown() {
        return shutdown;
    }

    public ReplicaAck getReplicaAck() {
        return replicaAck;
    }

    public Cluster getCluster() {
        return cluster;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public Observations getObservations() {
        return observations;
    }

    /**
     * Rejects values that cannot work, naming the property, so the application fails at start-up.
     *
     * @throws InvalidConfigurationPropertyValueException for the first invalid value
     */
    @Override
    public void afterPropertiesSet() {
        DistributedLockPropertyChecks.check(this);
    }

    static boolean isValidLease(Duration lease, Duration minimum) {
        return lease.compareTo(minimum) >= 0 && lease.compareTo(Lease.MAX_FIXED) <= 0;
    }

    /** Auto-renewed leases. */
    public static class Watchdog {

        /** Lease of auto-renewed locks: how long a lock outlives a holder that died. */
        private Duration lease = Duration.ofSeconds(30);

        /** How often auto-renewed leases are renewed; unset means a third of the lease. */
        private @Nullable Duration renewInterval;

        /**
         * Longest time an auto-renewed lease is kept alive; past it, renewals stop and the holder is told it lost the
         * lock once the lease ran out. Bounds how long a hung holder keeps a key. Unset means no maximum.
         */
        private @Nullable Duration maxHold;

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public @Nullable Duration getRenewInterval() {
            return renewInterval;
        }

        public void setRenewInterval(@Nullable Duration renewInterval) {
            this.renewInterval = renewInterval;
        }

        public @Nullable Duration getMaxHold() {
            return maxHold;
        }

        public void setMaxHold(@Nullable Duration maxHold) {
            this.maxHold = maxHold;
        }

        /**
         * The renew interval to use.
         *
         * @return the configured interval, or a third of the lease
         */
        public Duration effectiveRenewInterval() {
            return renewInterval != null ? renewInterval : lease.dividedBy(3);
        }
    }

    /** Closing the lock when the application shuts down. */
    public static class Shutdown {

        /** How long shutdown keeps renewing held locks and waits for their release before reporting them lost. */
        private Duration gracePeriod = Duration.ofSeconds(10);

        public Duration getGracePeriod() {
            return gracePeriod;
        }

        public void setGracePeriod(Duration gracePeriod) {
            this.gracePeriod = gracePeriod;
        }
    }

    /** Deprecated names of {@code distlock.redis.replica-ack.*}, which they still set where it is not set itself. */
    public static class ReplicaAck {

        /** How many replicas must acknowledge a grant before it counts. */
        private @Nullable Integer replicas;

        /** How long a grant waits for the replicas. */
        private @Nullable Duration timeout;

        @DeprecatedConfigurationProperty(replacement = "distlock.redis.replica-ack.replicas", since = "0.1.0")
        public @Nullable Integer getReplicas() {
            return replicas;
        }

        public void setReplicas(@Nullable Integer replicas) {
            this.replicas = replicas;
        }

        @DeprecatedConfigurationProperty(replacement = "distlock.redis.replica-ack.timeout", since = "0.1.0")
        public @Nullable Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(@Nullable Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** The advisor behind @DistributedLock. */
    public static class Aspect {

        /**
         * Order of the @DistributedLock advisor; lower runs further outside. The default puts the lock outside
         * transactions, whose advisor has the lowest precedence.
         */
        private int order = Ordered.LOWEST_PRECEDENCE - 1;

        public int getOrder() {
            return order;
        }

        public void setOrder(int order) {
            this.order = order;
        }
    }

    /** Deprecated name of {@code distlock.redis.cluster.*}, which it still sets where that is not set itself. */
    public static class Cluster {

        /** Whether to announce releases with sharded pub/sub within the key's shard. */
        private @Nullable Boolean shardedPubSub;

        @DeprecatedConfigurationProperty(replacement = "distlock.redis.cluster.sharded-pub-sub", since = "0.1.0")
        public @Nullable Boolean getShardedPubSub() {
            return shardedPubSub;
        }

        public void setShardedPubSub(@Nullable Boolean shardedPubSub) {
            this.shardedPubSub = shardedPubSub;
        }
    }

    /** Micrometer meters of acquisitions, holds, renewals and handovers, when Micrometer is present. */
    public static class Metrics {

        /** Whether to record distlock's meters in the application's MeterRegistry. */
        private boolean enabled = true;

        /**
         * Most distinct key groups that distlock's meters and observations are tagged with; the keys of every further
         * group are tagged "other", so that keys built from request data cannot add meters without end.
         */
        private int maxGroups = 100;

        /**
         * Key prefixes whose keys are each a group of their own, such as "jobs:" so that every scheduled job keyed
         * 'jobs:<name>' has its own meters; other keys are grouped by the text before their first ':'. Counted against
         * max-groups like every group.
         */
        private List<String> keyGroupPrefixes = new ArrayList<>();

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getMaxGroups() {
            return maxGroups;
        }

        public void setMaxGroups(int maxGroups) {
            this.maxGroups = maxGroups;
        }

        public List<String> getKeyGroupPrefixes() {
            return keyGroupPrefixes;
        }

        public void setKeyGroupPrefixes(List<String> keyGroupPrefixes) {
            this.keyGroupPrefixes = keyGroupPrefixes;
        }
    }

    /** Micrometer observations (tracing spans) of acquisitions and held regions, when an ObservationRegistry exists. */
    public static class Observations {

        /**
         * Whether to observe each acquisition and each held region, so that tracing shows lock waits as spans and the
         * meter handler makes the distlock.acquire and distlock.held timers of them; when false, distlock records those
         * timers itself.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
