package io.distlock.zookeeper;

import io.distlock.spi.InstanceNames;
import io.distlock.store.LeaseReading;
import io.distlock.store.LeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LeaseStore} on ZooKeeper, through a Curator client.
 *
 * <p>Each key has a node under the base path (the key percent-encoded into one node name), created as a container
 * that the server removes once it is empty. Each acquisition adds an ephemeral sequential node under it; the lowest
 * node holds the key and the others wait first come, first served, each watching the node ahead of it. A holder's
 * lease runs from its node's {@code mtime}, on the ZooKeeper leader's clock: the waiter right behind it compares the
 * lease with the {@code mtime} of a write to the store's clock node ({@code <basePath>/.clock}) and removes the node
 * once the lease ran out, unless the holder extended it meanwhile. The fencing token is the holder node's creation
 * zxid, which grows across the whole ensemble. A tree's paths are held by nodes under the
 * tree's node, each created only while no conflicting path's node is there.
 *
 * <p>A hold is reported gone when its node is removed, and also as soon as the client's connection is suspended or its
 * session lost: while disconnected, the client cannot know whether the ensemble already expired its session and gave
 * the key to someone else.
 *
 * <p><b>Access.</b> A holder's node holds its owner token and lease, and whoever may change or delete it can end the
 * hold. With {@link Builder#authorization}, every node the store creates is its creator's alone; every instance that
 * locks the same keys must authenticate as the same identity. Once the client first connects, the store logs a
 * warning if the base path is open to {@code world:anyone}.
 */
public final class ZooKeeperLeaseStore implements LeaseStore {

    /** The base path when none is given. */
    public static final String DEFAULT_BASE_PATH = "/distlock";

    private static final String CLOCK_NODE = ".clock";
    private static final String PERMITS_NODE = ".permits";

    private final CuratorFramework client;
    private final boolean ownsClient;
    private final String basePath;
    private final Calls calls;
    private final Duration callTimeout;
    private final ServerClock clock;
    private final ConnectionWatch connection = new ConnectionWatch();
    private final StoreThreads threads = new StoreThreads();

    private ZooKeeperLeaseStore(CuratorFramework client, boolean ownsClient, String basePath, Duration callTimeout) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.basePath = basePath;
        this.calls = new Calls(callTimeout);
        this.callTimeout = callTimeout;
        this.clock = new ServerClock(client, ZKPaths.makePath(basePath, CLOCK_NODE), calls);
        client.getConnectionStateListenable().addListener(connection);
        threads.cleanup().execute(new BasePathAccess(client, basePath, calls, callTimeout)::check);
    }

    /**
     * Starts a store on the caller's client, which must be started and which {@link #close()} leaves open.
     *
     * @param client a started Curator client
     * @return a builder
     */
    public static Builder builder(CuratorFramework client) {
        if (client == null) {
            throw new IllegalArgumentException("client must not be null");
        }
        return new Builder(client, null);
    }

    /**
     * Starts a store with its own Curator client of the given ensemble, which {@link #close()} closes.
     *
     * @param connectString the ensemble, such as {@code "zk1:2181,zk2:2181,zk3:2181"}
     * @return a builder
     */
    public static Builder builder(String connectString) {
        if (connectString == null || connectString.isBlank()) {
            throw new IllegalArgumentException("connectString must not be blank");
        }
        return new Builder(null, connectString);
    }

    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        return begin(key, owner, InstanceNames.ofThisProcess(null), lease);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The holder's name goes into the data of the acquisition's node; the grant's time is the node's {@code mtime}
     * on the ZooKeeper leader's clock.
     */
    @Override
    public Acquisition begin(String key, String owner, String holder, Duration lease) {
        String parent = ZKPaths.makePath(basePath, KeyNodes.nodeName(key));
        return new ZooKeeperAcquisition(this, key, parent, owner, holder, lease.toMillis(), 1, false);
    }

    /**
     * {@inheritDoc} A semaphore key's queue is the node {@code <basePath>/.permits/<key>}, apart from the key's lock;
     * a waiter is granted a permit once fewer than its count of nodes are ahead of it.
     */
    @Override
    public Acquisition beginPermit(String key, int permits, String owner, String holder, Duration lease) {
        String parent = ZKPaths.makePath(basePath, PERMITS_NODE, KeyNodes.nodeName(key));
        return new ZooKeeperAcquisition(this, key, parent, owner, holder, lease.toMillis(), permits, false);
    }

    /** {@inheritDoc} A semaphore key is a queue like a lock's, whose first nodes hold permits. */
    @Override
    public boolean offersPermits() {
        return true;
    }

    /** {@inheritDoc} A reader queues with the writers, and holds once no writer's node is ahead of it. */
    @Override
    public Acquisition beginRead(String key, String owner, String holder, Duration lease) {
        String parent = ZKPaths.makePath(basePath, KeyNodes.nodeName(key));
        return new ZooKeeperAcquisition(this, key, parent, owner, holder, lease.toMillis(), 1, true);
    }

    /** {@inheritDoc} Readers and writers share the key's queue, in arrival order. */
    @Override
    public boolean offersReaders() {
        return true;
    }

    /**
     * {@inheritDoc} A path is held by an ephemeral node under the tree's node {@code <basePath>/.paths/<tree>}, created
     * only once no node of a conflicting path is left there, in one transaction with a write to the tree's node at the
     * version read with its children ({@link ZooKeeperPathAcquisition}). An attempt costs a {@code getChildren} of the
     * tree's node and that transaction: O(paths held in the tree). Waiters wait only for holders, in no order.
     */
    @Override
    public Acquisition beginPath(String tree, List<String> segments, String owner, String holder, Duration lease) {
        return new ZooKeeperPathAcquisition(
                this, segments, PathNodes.treePath(basePath, tree), owner, holder, lease.toMillis());
    }

    /** {@inheritDoc} A tree's node holds a node per held path; paths apart hold at once. */
    @Override
    public boolean offersPaths() {
        return true;
    }

    /** Refuses a tree name or a path that is not valid Unicode text, as {@link #validateKey} refuses a key. */
    @Override
    public void validatePath(String tree, List<String> segments) {
        PathNodes.validate(tree, segments);
    }

    /**
     * {@inheritDoc}
     *
     * @return the builder's {@link Builder#callTimeout(Duration)}, 15 s by default
     */
    @Override
    public Duration callTimeout() {
        return callTimeout;
    }

    /**
     * Refuses keys that are not valid Unicode text (an unpaired surrogate), as their node name would be ambiguous.
     *
     * @param key a key that passed {@code Lock}'s own rules
     * @throws IllegalArgumentException if the key has an unpaired surrogate
     */
    @Override
    public void validateKey(String key) {
        KeyNodes.validate(key);
    }

    /**
     * Reads the key's first node and compares its lease with the server's clock, which writes the store's clock node
     * (no lease depends on it); the key and its queue are left as they are.
     */
    @Override
    public Optional<Duration> remainingLease(String key) {
        return readLease(key).map(LeaseReading::remaining);
    }

    /**
     * Reads the key's holder node as {@link #remainingLease(String)} does, with the holder's name from its data and
     * the grant's time on the ZooKeeper leader's clock.
     */
    @Override
    public Optional<LeaseReading> readLease(String key) {
        return HolderNodes.read(this, key, ZKPaths.makePath(basePath, KeyNodes.nodeName(key)));
    }

    /** True: waiters queue as sequential nodes and are granted the key in their order, whatever their process. */
    @Override
    public boolean servesWaitersInArrivalOrder() {
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Deletes the key's first queue node if it holds the grant this fencing token names (the node's {@code czxid})
     * and its lease runs, and in the same transaction records {@code <basePath>/.released/<czxid>}, by which the holder
     * learns at once, through its watch, that an operator freed it.
     */
    @Override
    public boolean releaseForOperator(String key, long fencingToken) {
        return OperatorRecords.release(this, key, ZKPaths.makePath(basePath, KeyNodes.nodeName(key)), fencingToken);
    }

    /**
     * Asks whether the base path exists, which changes nothing.
     *
     * @throws io.distlock.LockBackendException if ZooKeeper could not be asked
     */
    @Override
    public void ping() {
        CuratorEvent answer = calls.await(
                basePath, "ping", cb -> client.checkExists().inBackground(cb).forPath(basePath));
        if (Calls.code(answer) != Code.OK && Calls.code(answer) != Code.NONODE) {
            throw Calls.failure(basePath, "ping", answer);
        }
    }

    /**
     * Names the ensemble and the base path, such as {@code "zookeeper[127.0.0.1:2181/distlock]"}.
     *
     * @return the description
     */
    @Override
    public String describe() {
        return "zookeeper[" + client.getZookeeperClient().getCurrentConnectionString() + basePath + "]";
    }

    /**
     * Stops watching the connection and closes the client if this store created it, which ends its session and so
     * frees its held keys at once; a caller's client is left open, and its held keys run out with their leases.
     */
    @Override
    public void close() {
        client.getConnectionStateListenable().removeListener(connection);
        threads.shutdown();
        if (ownsClient) {
            client.close();
        }
    }

    CuratorFramework client() {
        return client;
    }

    Calls calls() {
        return calls;
    }

    ServerClock clock() {
        return clock;
    }

    ConnectionWatch connection() {
        return connection;
    }

    StoreThreads threads() {
        return threads;
    }

    /** Settings of a {@link ZooKeeperLeaseStore}. */
    public static final class Builder {

        private final @Nullable CuratorFramework client;
        private final @Nullable String connectString;
        private final OwnClient own = new OwnClient();
        private String basePath = DEFAULT_BASE_PATH;
        private Duration callTimeout = Duration.ofSeconds(15);

        private Builder(@Nullable CuratorFramework client, @Nullable String connectString) {
            this.client = client;
            this.connectString = connectString;
        }

        /**
         * Sets the node under which the keys' nodes are made, {@code /distlock} by default.
         *
         * @param basePath an absolute ZooKeeper path other than {@code /} and outside {@code /zookeeper}
         * @return this builder
         * @throws IllegalArgumentException if the path is not a valid ZooKeeper path or is not allowed
         */
        public Builder basePath(String basePath) {
            KeyNodes.validateBasePath(basePath);
            this.basePath = basePath;
            return this;
        }

        /**
         * Sets the session timeout of the client this store creates, 10 s by default. A holder that dies frees its
         * keys after about this long; a longer one survives longer pauses. Only for {@link #builder(String)}.
         *
         * @param sessionTimeout at least 1 s
         * @return this builder
         * @throws IllegalArgumentException if shorter than 1 s
         * @throws IllegalStateException if the store uses the caller's client
         */
        public Builder sessionTimeout(Duration sessionTimeout) {
            requireOwnClient("the session timeout is the caller's client's setting");
            own.sessionTimeout(sessionTimeout);
            return this;
        }

        /**
         * Authenticates the client this store creates, and gives every node the store creates an ACL that allows
         * everything to the identities the client authenticated as and nothing to anyone else (ZooKeeper's {@code
         * CREATOR_ALL_ACL}): another client, with other credentials or none, can then neither read a holder's node,
         * nor change its lease, nor delete it. Every instance that locks the same keys must use the same credentials,
         * since a waiter removes a holder's node whose lease ran out. Nodes that exist already keep their ACL. Only for
         * {@link #builder(String)}; a caller's client has its own authorization and {@code ACLProvider}.
         *
         * @param scheme the authentication scheme, such as {@code digest}
         * @param credentials the credentials, such as {@code user:password} in UTF-8 for {@code digest}; copied, and
         *     never logged or put into a message
         * @return this builder
         * @throws IllegalArgumentException if the scheme is blank, or the credentials are empty or, for {@code
         *     digest}, not {@code user:password}; the message never quotes them
         * @throws IllegalStateException if the store uses the caller's client
         */
        public Builder authorization(String scheme, byte[] credentials) {
            requireOwnClient("authorization is the caller's client's setting, with an ACLProvider for its nodes");
            own.authorization(scheme, credentials);
            return this;
        }

        /**
         * Sets ZooKeeper's own configuration of the client this store creates, such as TLS ({@code
         * zookeeper.client.secure}, {@code zookeeper.ssl.trustStore.location}, ...), for this client alone instead of
         * the JVM's system properties. Only for {@link #builder(String)}.
         *
         * @param config the configuration; TLS needs {@code zookeeper.clientCnxnSocket} set to {@code
         *     org.apache.zookeeper.ClientCnxnSocketNetty}
         * @return this builder
         * @throws IllegalArgumentException if the configuration asks for TLS on a socket without it
         * @throws IllegalStateException if the store uses the caller's client
         */
        public Builder clientConfig(ZKClientConfig config) {
            requireOwnClient("the client configuration is the caller's client's setting");
            own.config(config);
            return this;
        }

        /**
         * Sets how long a single request may wait for ZooKeeper's answer, Curator's retries included, before the call
         * throws {@link io.distlock.LockBackendException}; 15 s by default. It bounds {@code acquire}, which has no wait
         * of its own, and the read that confirms a nested acquisition; a caller with a shorter wait gives up at the end
         * of its wait, and a queue node that the request it gave up on creates is removed once Curator reports the
         * outcome.
         *
         * @param callTimeout at least 100 ms
         * @return this builder
         * @throws IllegalArgumentException if shorter than 100 ms
         */
        public Builder callTimeout(Duration callTimeout) {
            if (callTimeout == null || callTimeout.compareTo(Duration.ofMillis(100)) < 0) {
                throw new IllegalArgumentException("callTimeout must be at least 100 ms, but was " + callTimeout);
            }
            this.callTimeout = callTimeout;
            return this;
        }

        /** The settings of the client this store creates do not apply to a caller's, which has its own. */
        private void requireOwnClient(String message) {
            if (client != null) {
                throw new IllegalStateException(message);
            }
        }

        /**
         * Creates the store, and for {@link #builder(String)} its client, which starts connecting. Once the client is
         * connected, the store creates the base path if it is missing and warns if it is open to {@code world:anyone}.
         *
         * @return the store
         * @throws IllegalArgumentException if the caller's client was not started
         */
        public ZooKeeperLeaseStore build() {
            if (client != null && client.getState() != CuratorFrameworkState.STARTED) {
                throw new IllegalArgumentException("client must be started, but was " + client.getState());
            }
            return client != null
                    ? new ZooKeeperLeaseStore(client, false, basePath, callTimeout)
                    : new ZooKeeperLeaseStore(own.start(connectString), true, basePath, callTimeout);
        }
    }
}
