package io.distlock.redis;

import io.distlock.Kind;
import io.distlock.internal.engine.OfferedKinds;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.Acquirer;
import io.distlock.redis.internal.engine.AsyncAcquirer;
import io.distlock.redis.internal.engine.AsyncThreads;
import io.distlock.redis.internal.engine.EvictionPolicyCheck;
import io.distlock.redis.internal.engine.Holds;
import io.distlock.redis.internal.engine.KeysTogether;
import io.distlock.redis.internal.engine.LeaseRenewer;
import io.distlock.redis.internal.engine.LiveHolds;
import io.distlock.redis.internal.engine.LocalHandovers;
import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.engine.LockKit;
import io.distlock.redis.internal.engine.LockSubscriptions;
import io.distlock.redis.internal.engine.ObserverCalls;
import io.distlock.redis.internal.engine.OperatorReleases;
import io.distlock.redis.internal.engine.Releaser;
import io.distlock.redis.internal.engine.RunConfirmations;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.fair.FairCommands;
import io.distlock.redis.internal.fair.FairHandovers;
import io.distlock.redis.internal.path.PathCommands;
import io.distlock.redis.internal.path.PathLocks;
import io.distlock.redis.internal.pubsub.ReleaseConnection;
import io.distlock.redis.internal.scripts.FenceFunctions;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.scripts.ReplicaAcknowledgement;
import io.distlock.redis.internal.scripts.ScriptRunner;
import io.distlock.redis.internal.waiting.OtherInstancesReleases;
import io.distlock.redis.internal.waiting.WaitingRoom;
import io.distlock.spi.HoldSettings;
import io.distlock.spi.LockBuilder;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * Settings of a {@link RedisLock}: those every engine shares ({@link LockBuilder}) and Redis's own; created by {@link
 * RedisLock#builder(RedisTemplate)}.
 */
public final class RedisLockBuilder extends LockBuilder<RedisLockBuilder> {

    private static final Logger log = LoggerFactory.getLogger(RedisLock.class);

    private final RedisTemplate<String, ?> template;
    private final LettuceConnectionFactory connectionFactory;
    String keyPrefix = "distlock:";
    private @Nullable ReleaseSubscription releaseSubscription;
    private boolean shardedPubSub = true;

    private int acknowledgingReplicas;
    private @Nullable Duration acknowledgementTimeout;
    private @Nullable Duration deleteCountersUnusedFor;
    private @Nullable Duration localHandoverWindow;

    RedisLockBuilder(RedisTemplate<String, ?> template) {
        this.template = template;
        this.connectionFactory = TemplateCheck.lettuceFactoryOf(template);
    }

    /**
     * Sets the prefix of every Redis key and of the release channel. Locks with different prefixes never see each
     * other.
     *
     * @param keyPrefix a non-blank prefix without '{' or '}'; default {@code "distlock:"}
     * @return this builder
     */
    public RedisLockBuilder keyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
        return this;
    }

    /**
     * Shares the application's release subscription instead of opening one for this lock.
     *
     * @param releaseSubscription the shared subscription; it is not closed with the lock
     * @return this builder
     */
    public RedisLockBuilder releaseSubscription(ReleaseSubscription releaseSubscription) {
        this.releaseSubscription = releaseSubscription;
        return this;
    }

    /**
     * Sets whether, on a Redis Cluster of Redis 7 or later, releases are announced and heard with sharded pub/sub
     * ({@code SPUBLISH}, {@code SSUBSCRIBE}), within the shard that serves the lock's key, instead of classic pub/sub,
     * which the cluster forwards to every node. On Redis 6.2, and off a cluster, releases are announced the classic way
     * either way. It applies to the lock's own subscription; one shared through {@link #releaseSubscription} keeps its
     * own setting. Every instance of an application must use the same setting: instances that announce sharded are
     * not heard by instances that subscribe only the classic way, whose waiters then wait for the holder's lease.
     *
     * @param shardedPubSub whether to use sharded pub/sub where the cluster serves it; default true
     * @return this builder
     */
    public RedisLockBuilder shardedPubSub(boolean shardedPubSub) {
        this.shardedPubSub = shardedPubSub;
        return this;
    }

    /**
     * Makes every acquisition wait, after Redis granted it, until this many replicas have it (Redis {@code WAIT} on the
     * connection that ran the grant); if fewer acknowledge within the timeout, the grant is released again and the
     * acquisition fails with {@link io.distlock.LockBackendException}. A lock released while a waiter of the same
     * instance waits is then not handed over directly: the waiter's own acquisition waits for the replicas too.
     *
     * <p>It narrows, but does not close, the window in which a failover loses a lock: a grant that reached no replica
     * is refused instead of being lost at the next promotion. {@code WAIT} is not consensus: the replica that
     * acknowledged may not be the one promoted, and renewals and releases are not waited for. While replicas are slow
     * or down, each acquisition takes up to the timeout, and holds up the commands queued behind it on its
     * connection.
     *
     * @param replicas how many replicas must acknowledge; 0, the default, waits for none
     * @param timeout how long to wait for them; positive and shorter than the Redis command timeout
     * @return this builder
     */
    public RedisLockBuilder replicaAcknowledgements(int replicas, Duration timeout) {
        this.acknowledgingReplicas = replicas;
        this.acknowledgementTimeout = timeout;
        return this;
    }

    /**
     * Lets each key's fencing counter expire a time after the key's latest grant, and takes fencing tokens from Redis's
     * clock so that they keep growing when a key comes back. Off by default: every lock name keeps one small counter
     * key for ever, and its tokens count 1, 2, 3 and so on. Set it the same on every instance that shares the keys.
     *
     * <p>With it, a grant's token is the larger of the counter plus one and Redis's time ({@code TIME}) in microseconds
     * since 1970 (about 1.8 × 10<sup>15</sup> in 2027), and the grant sets the counter to expire {@code unused} later.
     * A key whose counter expired starts again from Redis's time, so it gets a larger token than any it had before as
     * long as Redis's clock has not been set back by more than {@code unused} meanwhile. Existing counters jump to the
     * clock at their next grant, and turning the option off again lets them go on counting from there. Tokens need 64
     * bits: a 32-bit column that stores them in the application's own tables no longer holds them.
     *
     * <p>A hold that is renewed for longer than {@code unused} outlives its counter: its own token stays valid, and
     * the next grant still gets a larger one, but {@link io.distlock.monitor.InspectableLock#releaseForOperator} no
     * longer finds the hold by its token. Choose a time longer than the longest hold. Redlock keeps its counters: it
     * raises each node's counter to the token the quorum agreed on, which an expiry on one node would undo.
     *
     * @param unused at least 1 s; null keeps the counters for ever
     * @return this builder
     * @throws IllegalArgumentException if shorter than 1 s
     */
    public RedisLockBuilder deleteCountersUnusedFor(@Nullable Duration unused) {
        if (unused != null && unused.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "deleteCountersUnusedFor must be at least 1 s, or null to keep the counters, but was " + unused);
        }
        this.deleteCountersUnusedFor = unused;
        return this;
    }

    /**
     * Turns on local handover, a mode for hot keys (a flash sale's one SKU, say), where most of the time the next holder
     * of a key waits in the same instance: a release hands the key to the longest waiting thread of this instance
     * without a Redis round trip. Off by default. This is lock cohorting, with the instance as the cohort.
     *
     * <p>A grant through Redis starts a run. Every holder of the run holds the key under the owner token Redis granted,
     * and gets the next fencing token of a block of {@value LocalHandovers#FENCES} that the grant reserved, so tokens
     * still rise strictly across all holders of all instances, with gaps. The key is kept in Redis {@code window}
     * longer than the lease asked, and a handover happens only while the lease last confirmed in Redis covers the
     * receiver's whole lease, counted from the handover: a section that outlives its lease is still reported lost. A
     * release returns once Redis confirmed, after the section ended, that the run still owned the key (one confirmation
     * covers the releases of one round trip), so a lost key is reported to every holder whose section it covered.
     * While other instances wait, at most {@value LocalHandovers#MAX_HANDOVERS_WHILE_OTHERS_WAIT} handovers in a row
     * stay inside this instance; then the key is released in Redis and reserved for them for a moment.
     *
     * <p>Only the exclusive lock's holds with fixed leases hand over locally; a hold with a renewed lease, or whose
     * lease was extended, goes through Redis. Fair, read, path and semaphore locks are not affected. What it costs: a
     * holder instance that dies keeps the key for up to its lease plus {@code window}; an operator's release ({@link
     * io.distlock.monitor.InspectableLock#releaseForOperator}) does not find a hold of a run by its fencing token; and
     * {@code keyState} shows when the run began, not when its current holder took the key. It cannot be combined with
     * {@link #replicaAcknowledgements}, whose every grant must wait for replicas, nor with a connection factory that
     * takes a connection from a pool per command, where a confirmation could overtake the release that ends its run.
     * A Redlock has no such setting.
     *
     * @param window how much longer than the lease asked the key is kept in Redis, from 1 ms to 1 min: the longest
     *     section after which the key can still be handed over locally; null, the default, turns local handover off
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public RedisLockBuilder localHandoverWindow(@Nullable Duration window) {
        if (window != null
                && (window.compareTo(Duration.ofMillis(1)) < 0 || window.compareTo(Duration.ofMinutes(1)) > 0)) {
            throw new IllegalArgumentException(
                    "localHandoverWindow must be from 1 ms to 1 min, or null for no local handover, but was " + window);
        }
        this.localHandoverWindow = window;
        return this;
    }

    /**
     * Validates the settings and creates the lock. Nothing is sent to Redis yet.
     *
     * @return the lock
     * @throws IllegalArgumentException naming the setting that is out of range, or settings that cannot go together
     */
    public RedisLock build() {
        HoldSettings settings = holdSettings();
        validateKeyPrefix();
        validateReplicaAcknowledgements();
        if (localHandoverWindow != null && !connectionFactory.getShareNativeConnection()) {
            throw new IllegalArgumentException("local handover (localHandoverWindow " + localHandoverWindow
                    + ") needs a connection factory that shares its connection (shareNativeConnection=true, Spring"
                    + " Boot's default), so that a run's confirmations reach Redis before the release that ends it;"
                    + " this one takes a connection from its pool per command");
        }
        String instanceId = OwnerTokens.newInstanceId();
        return wire(instanceId, singleServer(instanceId, settings.instanceName()), settings);
    }

    /**
     * Builds the lock's parts on these servers with these settings, and the lock of them; a Redlock's builder calls
     * it with its nodes.
     *
     * @param instanceId this lock's id, which its commands put into waiters' marks and release announcements
     * @param settings the settings of the lock's holds, checked together
     */
    RedisLock wire(String instanceId, LockServers servers, HoldSettings settings) {
        RedisKeys keys = new RedisKeys(keyPrefix);
        LockCommands commands = servers.commands();
        WaitingRoom waitingRoom = servers.waitingRoom();
        LiveHolds live = new LiveHolds();
        ObserverCalls observerCalls = new ObserverCalls(settings.observer());
        LeaseRenewer renewer = new LeaseRenewer(commands, servers.clustered(), settings, observerCalls);
        FairHandovers handovers =
                servers.fair() == null ? new FairHandovers() : servers.fair().handovers();
        LockSubscriptions subscriptions = new LockSubscriptions(
                servers.subscriptions(),
                servers.ownsSubscriptions(),
                servers.channels(),
                servers.fair() == null ? null : instanceId,
                handovers.routing(new OperatorReleases(live, new OtherInstancesReleases(instanceId, waitingRoom))));
        FairCommands fair = servers.fair();
        Releaser releaser = new Releaser(
                commands,
                waitingRoom,
                live,
                renewer,
                OwnerTokens::newToken,
                fair == null ? null : fair::release,
                observerCalls,
                servers.handovers());
        Holds holds = new Holds(commands, live, renewer, releaser, LockKind.EXCLUSIVE, servers.handovers());
        LockKit kit = new LockKit(
                servers.name(),
                keys,
                holds,
                observerCalls,
                subscriptions,
                () -> servers.evictionChecks().forEach(EvictionPolicyCheck::runOnce));
        PathLocks paths = servers.paths() == null
                ? null
                : new PathLocks(servers.paths(), waitingRoom, live, servers.clustered(), settings, observerCalls);
        return new RedisLock(
                template,
                servers.name(),
                kit,
                renewer,
                new Acquirer(kit, commands, waitingRoom, releaser),
                new AsyncAcquirer(kit, commands, waitingRoom, releaser, AsyncThreads.shared()),
                commands instanceof SingleNodeCommands single && single.handsOver()
                        ? new KeysTogether(kit, single, servers.clustered(), waitingRoom::released)
                        : null,
                kinds(kit, servers, handovers, paths),
                new LockInspection(
                        keys,
                        commands,
                        live,
                        waitingRoom,
                        servers.subscriptions(),
                        () -> renewer.isRunning() && (paths == null || paths.isRenewerRunning())),
                new LockShutdown(
                        waitingRoom,
                        handovers,
                        subscriptions,
                        live,
                        renewer,
                        paths,
                        servers.evictionChecks(),
                        settings.shutdownGracePeriod(),
                        log));
    }

    /**
     * Registers the kinds these servers offer beside the exclusive lock, each one unit of its own: its commands (and
     * their scripts), its holds and the lock that hands them out.
     */
    private static OfferedKinds kinds(
            LockKit kit, LockServers servers, FairHandovers handovers, @Nullable PathLocks paths) {
        OfferedKinds kinds = OfferedKinds.none();
        if (servers.fair() != null) {
            kinds = kinds.with(
                    Kind.FAIR,
                    new FairLock(
                            kit,
                            servers.fair(),
                            handovers,
                            servers.waitingRoom().readers()));
        }
        if (servers.commands() instanceof SingleNodeCommands single) {
            kinds = kinds.with(
                            Kind.READ,
                            new ReadLock(kit, single, servers.waitingRoom().readers(), true))
                    .with(
                            Kind.SEMAPHORE,
                            new RedisSemaphores(
                                    kit, single, servers.waitingRoom().permits()));
        }
        if (paths != null) {
            kinds = kinds.with(Kind.PATH, tree -> new PathLock(kit, paths, tree));
        }
        return kinds;
    }

    /** Checks the key prefix, which a Redlock's settings share. */
    void validateKeyPrefix() {
        new RedisKeys(keyPrefix);
    }

    private LockServers singleServer(String instanceId, String instanceName) {
        ScriptRunner runner = new ScriptRunner(connectionFactory);
        boolean ownsSubscription = releaseSubscription == null;
        ReleaseConnection subscription = ownsSubscription
                ? new ReleaseConnection(connectionFactory, shardedPubSub)
                : releaseSubscription.connection();
        ReleaseChannels channels =
                new ReleaseChannels(new RedisKeys(keyPrefix).releaseChannel(), subscription::announcesSharded);
        ReplicaAcknowledgement acknowledgement = replicaAcknowledgement();
        String counterKeep = deleteCountersUnusedFor == null
                ? FenceFunctions.KEEP_FOR_EVER
                : Long.toString(deleteCountersUnusedFor.toMillis());
        LocalHandovers handovers = localHandoverWindow == null
                ? null
                : new LocalHandovers(new RunConfirmations(runner, instanceId), localHandoverWindow.toMillis());
        SingleNodeCommands commands = new SingleNodeCommands(
                runner,
                channels,
                instanceId,
                instanceName,
                counterKeep,
                Releaser.OTHERS_TURN_MILLIS,
                acknowledgement,
                handovers == null ? 1 : LocalHandovers.FENCES);
        EvictionPolicyCheck evictionPolicy = new EvictionPolicyCheck(template, runner::inBackground);
        WaitingRoom waitingRoom =
                handovers == null ? new WaitingRoom() : new WaitingRoom(LocalHandovers.MAX_HANDOVERS_WHILE_OTHERS_WAIT);
        return new LockServers(
                "RedisLock",
                commands,
                waitingRoom,
                connectionFactory.isClusterAware(),
                channels,
                List.of(subscription),
                ownsSubscription,
                List.of(evictionPolicy),
                new FairCommands(runner, channels, instanceId, instanceName, counterKeep, waitingRoom::released),
                new PathCommands(runner, channels, instanceId, counterKeep, acknowledgement, waitingRoom::released),
                handovers);
    }

    private void validateReplicaAcknowledgements() {
        if (acknowledgingReplicas < 0) {
            throw new IllegalArgumentException(
                    "replica acknowledgements must be 0 (none) or more, but were " + acknowledgingReplicas);
        }
        if (acknowledgingReplicas == 0) {
            return;
        }
        if (localHandoverWindow != null) {
            throw new IllegalArgumentException("local handover (localHandoverWindow " + localHandoverWindow
                    + ") cannot be combined with replica acknowledgements (" + acknowledgingReplicas
                    + "): a handover without Redis would not wait for replicas; set one of them");
        }
        long commandTimeoutMillis = connectionFactory.getTimeout();
        if (acknowledgementTimeout == null
                || acknowledgementTimeout.toMillis() <= 0
                || acknowledgementTimeout.toMillis() >= commandTimeoutMillis) {
            throw new IllegalArgumentException("replica acknowledgement timeout must be at least 1 ms and shorter "
                    + "than the Redis command timeout (" + commandTimeoutMillis + " ms), but was "
                    + acknowledgementTimeout);
        }
    }

    /** What grants wait for from replicas, or null if they count at once. */
    private @Nullable ReplicaAcknowledgement replicaAcknowledgement() {
        return acknowledgingReplicas == 0
                ? null
                : new ReplicaAcknowledgement(acknowledgingReplicas, acknowledgementTimeout.toMillis());
    }
}
