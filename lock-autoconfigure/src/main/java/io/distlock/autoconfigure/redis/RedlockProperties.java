package io.distlock.autoconfigure.redis;

import io.distlock.autoconfigure.internal.SecretPropertyException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * A Redlock over independent Redis masters instead of the lock on {@code spring.data.redis}: configured when at
 * least one node is. Invalid values fail application start-up, naming the property; those that must agree with the
 * settings every backend shares ({@code distlock.watchdog.lease}, {@code distlock.replica-ack.replicas}) are checked
 * when the Redlock is built.
 */
@ConfigurationProperties("distlock.redlock")
public class RedlockProperties implements InitializingBean {

    /**
     * The independent Redis masters of the Redlock, each with url, username, password, ssl.enabled and ssl.bundle;
     * an odd number, at least 3, or none for no Redlock.
     */
    private List<Node> nodes = new ArrayList<>();

    /** Share of every lease allowed for clocks running at different speeds, on top of 2ms; from 0 to 0.5. */
    private double clockDriftFactor = 0.01;

    /**
     * Command timeout on each node; a node that does not answer within it counts as a vote against, and 2s keeps a
     * stalled node from holding up acquisitions, renewals and releases, unlike spring.data.redis's default of 60s.
     */
    private Duration timeout = Duration.ofSeconds(2);

    /** How long connecting to a node may take before it counts as unreachable, rather than Lettuce's 10s. */
    private Duration connectTimeout = Duration.ofSeconds(2);

    public List<Node> getNodes() {
        return nodes;
    }

    public void setNodes(List<Node> nodes) {
        this.nodes = nodes;
    }

    public double getClockDriftFactor() {
        return clockDriftFactor;
    }

    public void setClockDriftFactor(double clockDriftFactor) {
        this.clockDriftFactor = clockDriftFactor;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    /**
     * Whether a Redlock is configured.
     *
     * @return true when at least one node is
     */
    public boolean isConfigured() {
        return nodes != null && !nodes.isEmpty();
    }

    /**
     * Every node, read and checked.
     *
     * @return one node per {@link #getNodes()} entry, in their order
     * @throws InvalidConfigurationPropertyValueException naming the first node property that is invalid
     * @throws SecretPropertyException naming the first node URL that is invalid, with its password masked
     */
    List<RedlockNode> readNodes() {
        List<RedlockNode> read = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            read.add(RedlockNode.of("distlock.redlock.nodes[" + i + "]", nodes.get(i)));
        }
        return read;
    }

    /**
     * Rejects values that cannot work, naming the property, so the application fails at start-up.
     *
     * @throws InvalidConfigurationPropertyValueException for the first invalid value
     * @throws SecretPropertyException for the first invalid node URL, which may hold a password
     */
    @Override
    public void afterPropertiesSet() {
        if (!(clockDriftFactor >= 0 && clockDriftFactor <= 0.5)) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.redlock.clock-drift-factor", clockDriftFactor, "must be from 0 to 0.5");
        }
        if (timeout == null || timeout.toMillis() < 1) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.redlock.timeout", timeout, "must be at least 1ms");
        }
        if (connectTimeout == null || connectTimeout.toMillis() < 1) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.redlock.connect-timeout", connectTimeout, "must be at least 1ms");
        }
        if (!isConfigured()) {
            return;
        }
        if (nodes.size() < 3 || nodes.size() % 2 == 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.redlock.nodes",
                    nodes.size() + " node(s)",
                    "must be an odd number of nodes, at least 3, so that a majority survives the loss of the"
                            + " others");
        }
        List<RedlockNode> read = readNodes();
        for (int i = 0; i < read.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (read.get(i).sameServer(read.get(j))) {
                    throw new SecretPropertyException(
                            "distlock.redlock.nodes[" + i + "].url",
                            RedlockNode.masked(nodes.get(i).getUrl()),
                            "must name another Redis server than distlock.redlock.nodes[" + j + "].url: every"
                                    + " node must be a different server, or a majority is not what it seems");
                }
            }
        }
    }

    /**
     * Rejects a configured Redlock whose settings do not agree with those every backend shares, naming the property.
     *
     * @param watchdogLease the lease of auto-renewed locks ({@code distlock.watchdog.lease})
     * @param acknowledgingReplicas the replicas that must acknowledge a grant ({@code distlock.replica-ack.replicas})
     * @throws InvalidConfigurationPropertyValueException for the first value that does not agree
     */
    void checkAgainst(Duration watchdogLease, RedisSettings redis) {
        // Compared only for a Redlock, whose timeout this is: a short watchdog lease on spring.data.redis is fine.
        if (timeout.compareTo(watchdogLease) >= 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.redlock.timeout",
                    timeout,
                    "must be shorter than distlock.watchdog.lease (" + watchdogLease + "), or a node that hangs"
                            + " can outlast an auto-renewed lease");
        }
        if (redis.replicas() > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    redis.replicasProperty(),
                    redis.replicas(),
                    "must be 0 when distlock.redlock.nodes are configured: replica acknowledgements are a"
                            + " single-node feature, a Redlock counts a majority of independent masters instead");
        }
        if (redis.deleteCountersUnusedFor() != null) {
            throw new InvalidConfigurationPropertyValueException(
                    RedisSettings.DELETE_COUNTERS,
                    redis.deleteCountersUnusedFor(),
                    "must be unset when distlock.redlock.nodes are configured: a Redlock raises each node's counter to"
                            + " the token its majority agreed on, which a counter that expires on one node would undo");
        }
        if (redis.localHandoverWindow() != null) {
            throw new InvalidConfigurationPropertyValueException(
                    RedisSettings.LOCAL_HANDOVER,
                    redis.localHandoverWindow(),
                    "must be unset when distlock.redlock.nodes are configured: a Redlock grants only with a majority of"
                            + " its nodes, which a handover inside one instance would pass by");
        }
    }

    /** One Redis master of a Redlock, configured like spring.data.redis. */
    public static class Node {

        /** Redis URL of the node: redis://[user:password@]host[:port][/database], or rediss:// for TLS. */
        private @Nullable String url;

        /** Login username of the node, overriding the URL's. */
        private @Nullable String username;

        /** Login password of the node, overriding the URL's. */
        private @Nullable String password;

        private final Ssl ssl = new Ssl();

        public @Nullable String getUrl() {
            return url;
        }

        public void setUrl(@Nullable String url) {
            this.url = url;
        }

        public @Nullable String getUsername() {
            return username;
        }

        public void setUsername(@Nullable String username) {
            this.username = username;
        }

        public @Nullable String getPassword() {
            return password;
        }

        public void setPassword(@Nullable String password) {
            this.password = password;
        }

        public Ssl getSsl() {
            return ssl;
        }
    }

    /** TLS to one node. */
    public static class Ssl {

        /** Whether to use TLS; unset means yes for a rediss:// URL or when a bundle is named. */
        private @Nullable Boolean enabled;

        /** Name of the Spring Boot SSL bundle (spring.ssl.bundle.*) to connect with. */
        private @Nullable String bundle;

        public @Nullable Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable String getBundle() {
            return bundle;
        }

        public void setBundle(@Nullable String bundle) {
            this.bundle = bundle;
        }
    }
}
