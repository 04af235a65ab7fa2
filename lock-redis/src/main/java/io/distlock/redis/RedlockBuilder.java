package io.distlock.redis;

import io.distlock.redis.internal.engine.EvictionPolicyCheck;
import io.distlock.redis.internal.engine.Releaser;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.pubsub.ReleaseConnection;
import io.distlock.redis.internal.redlock.QuorumCommands;
import io.distlock.redis.internal.scripts.FenceFunctions;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.scripts.ScriptRunner;
import io.distlock.redis.internal.waiting.WaitingRoom;
import io.distlock.spi.HoldSettings;
import io.distlock.spi.LockBuilder;
import io.lettuce.core.ClientOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Settings of a {@link Redlock}: those every engine shares ({@link LockBuilder}) and the vote's own; created by {@link
 * Redlock#builder(List)}.
 */
public final class RedlockBuilder extends LockBuilder<RedlockBuilder> {

    private static final Logger log = LoggerFactory.getLogger(Redlock.class);

    /** The default clock drift factor, as the Redis documentation's description of Redlock suggests. */
    public static final double DEFAULT_CLOCK_DRIFT_FACTOR = 0.01;

    private final List<LettuceConnectionFactory> nodes;
    private final RedisLockBuilder settings;
    private double clockDriftFactor = DEFAULT_CLOCK_DRIFT_FACTOR;

    RedlockBuilder(List<? extends RedisConnectionFactory> nodes) {
        this.nodes = validNodes(nodes);
        this.settings = new RedisLockBuilder(new StringRedisTemplate(this.nodes.get(0)));
    }

    /**
     * Sets the prefix of every Redis key and of the release channel, on every node.
     *
     * @param keyPrefix a non-blank prefix without '{' or '}'; default {@code "distlock:"}
     * @return this builder
     */
    public RedlockBuilder keyPrefix(String keyPrefix) {
        settings.keyPrefix(keyPrefix);
        return this;
    }

    /**
     * Sets the share of every lease that is allowed for the clocks of the client and the nodes running at different
     * speeds: a hold counts its lease as over {@code lease * clockDriftFactor + 2 ms} before the nodes would.
     *
     * @param clockDriftFactor from 0 to 0.5; default {@value #DEFAULT_CLOCK_DRIFT_FACTOR}
     * @return this builder
     */
    public RedlockBuilder clockDriftFactor(double clockDriftFactor) {
        this.clockDriftFactor = clockDriftFactor;
        return this;
    }

    /**
     * Validates the settings and creates the lock. Nothing is sent to Redis yet.
     *
     * @return the lock
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public Redlock build() {
        if (!(clockDriftFactor >= 0 && clockDriftFactor <= 0.5)) {
            throw new IllegalArgumentException("clock drift factor must be from 0 to 0.5, but was " + clockDriftFactor);
        }
        HoldSettings holdSettings = holdSettings();
        settings.validateKeyPrefix();
        String instanceId = OwnerTokens.newInstanceId();
        ReleaseChannels channels = ReleaseChannels.classicOnly(new RedisKeys(settings.keyPrefix).releaseChannel());
        List<SingleNodeCommands> commands = new ArrayList<>(nodes.size());
        List<ReleaseConnection> subscriptions = new ArrayList<>(nodes.size());
        List<EvictionPolicyCheck> evictionChecks = new ArrayList<>(nodes.size());
        for (LettuceConnectionFactory node : nodes) {
            ScriptRunner runner = new ScriptRunner(node);
            commands.add(new SingleNodeCommands(
                    runner,
                    channels,
                    instanceId,
                    holdSettings.instanceName(),
                    FenceFunctions.KEEP_FOR_EVER,
                    Releaser.OTHERS_TURN_MILLIS,
                    null,
                    1));
            subscriptions.add(new ReleaseConnection(node, false));
            evictionChecks.add(new EvictionPolicyCheck(new StringRedisTemplate(node), runner::inBackground));
        }
        WaitingRoom waitingRoom = new WaitingRoom();
        QuorumCommands quorum = new QuorumCommands(commands, clockDriftFactor, waitingRoom::released);
        LockServers servers = new LockServers(
                "Redlock",
                quorum,
                waitingRoom,
                false,
                channels,
                subscriptions,
                true,
                List.copyOf(evictionChecks),
                null,
                null,
                null);
        return new Redlock(
                settings.wire(instanceId, servers, holdSettings), nodes.size(), quorum.quorum(), clockDriftFactor);
    }

    /**
     * Lettuce keeps the commands sent to a node that is down until it reconnects or the command timeout ends; a vote
     * that needs that node then waits as long. Rejecting them at once lets the other nodes decide.
     */
    private static void warnIfCommandsWaitForReconnects(int index, LettuceConnectionFactory factory) {
        ClientOptions.DisconnectedBehavior behavior = factory.getClientConfiguration()
                .getClientOptions()
                .map(ClientOptions::getDisconnectedBehavior)
                .orElse(ClientOptions.DisconnectedBehavior.DEFAULT);
        if (behavior != ClientOptions.DisconnectedBehavior.REJECT_COMMANDS) {
            log.warn(
                    "Redlock node {} queues commands while it is disconnected, so a vote that needs it waits for its"
                            + " command timeout while it is down. Build its LettuceConnectionFactory with"
                            + " ClientOptions.builder().disconnectedBehavior(REJECT_COMMANDS), as distlock's"
                            + " auto-configuration does",
                    index);
        }
    }

    private static List<LettuceConnectionFactory> validNodes(List<? extends RedisConnectionFactory> nodes) {
        if (nodes == null || nodes.size() < 3 || nodes.size() % 2 == 0) {
            throw new IllegalArgumentException("a Redlock needs an odd number of independent Redis nodes, at least 3,"
                    + " so that a majority survives the loss of the others, but got "
                    + (nodes == null ? "none" : nodes.size()));
        }
        List<LettuceConnectionFactory> lettuce = new ArrayList<>(nodes.size());
        Set<String> servers = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            RedisConnectionFactory node = nodes.get(i);
            if (!(node instanceof LettuceConnectionFactory factory)) {
                throw new IllegalArgumentException("Redlock node " + i + " must be a LettuceConnectionFactory, but is "
                        + (node == null ? "null" : node.getClass().getName()));
            }
            if (factory.isClusterAware()) {
                throw new IllegalArgumentException("Redlock node " + i + " is a Redis Cluster client; a Redlock needs"
                        + " independent standalone masters, one connection factory each");
            }
            String server = factory.getHostName() + ":" + factory.getPort() + "/" + factory.getDatabase();
            if (factory.getSentinelConfiguration() == null && !servers.add(server)) {
                throw new IllegalArgumentException("Redlock node " + i + " is " + server + " again; every node must be"
                        + " a different Redis server, or a majority is not what it seems");
            }
            warnIfCommandsWaitForReconnects(i, factory);
            lettuce.add(factory);
        }
        return List.copyOf(lettuce);
    }
}
