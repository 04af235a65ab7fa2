package io.distlock.zookeeper;

import io.distlock.store.LeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.common.PathUtils;
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
 * zxid, which grows across the whole ensemble.
 *
 * <p>A hold is reported gone when its node is removed, and also as soon as the client's connection is suspended or its
 * session lost: while disconnected, the client cannot know whether the ensemble already expired its session and gave
 * the key to someone else.
 */
public final class ZooKeeperLeaseStore implements LeaseStore {

    /** The base path when none is given. */
    public static final String DEFAULT_BASE_PATH = "/distlock";

    private static final String CLOCK_NODE = ".clock";

    private final CuratorFramework client;
    private final boolean ownsClient;
    private final String basePath;
    private final Calls calls;
    private final Duration callTimeout;
    private final ServerClock clock;
    private final ConnectionWatch connection = new ConnectionWatch();
    private final ExecutorService events;
    private final ExecutorService cleanup;

    private ZooKeeperLeaseStore(CuratorFramework client, boolean ownsClient, String basePath, Duration callTimeout) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.basePath = basePath;
        this.calls = new Calls(callTimeout);
        this.callTimeout = callTimeout;
        this.clock = new ServerClock(client, ZKPaths.makePath(basePath, CLOCK_NODE), calls);
        this.events = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "distlock-zookeeper-events");
            thread.setDaemon(true);
            return thread;
        });
        this.cleanup = new ThreadPoolExecutor(0, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread thread = new Thread(task, "distlock-zookeeper-cleanup");
            thread.setDaemon(true);
            return thread;
        });
        client.getConnectionStateListenable().addListener(connection);
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
        String parent = ZKPaths.makePath(basePath, KeyNodes.nodeName(key));
        return new ZooKeeperAcquisition(this, key, parent, owner, lease.toMillis());
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
     * Reads the key's holder node and compares its lease with the server's clock. Reading that clock writes the store's
     * clock node, which no lease depends on; the key and its queue are left as they are.
     *
     * @param key a valid key
     * @return the holder's remaining lease on the server's clock, or empty when nobody holds the key
     */
    @Override
    public Optional<Duration> remainingLease(String key) {
        String parent = ZKPaths.makePath(basePath, KeyNodes.nodeName(key));
        List<String> queue = Queue.read(this, key, parent);
        if (queue.isEmpty()) {
            return Optional.empty();
        }
        CuratorEvent answer = calls.await(
                key,
                "reading the holder",
                cb -> client.getData().inBackground(cb).forPath(ZKPaths.makePath(parent, queue.get(0))));
        switch (Calls.code(answer)) {
            case OK -> {}
            case NONODE -> {
                return Optional.empty();
            }
            default -> throw Calls.failure(key, "reading the holder", answer);
        }
        LeaseData holder = LeaseData.parse(answer.getData());
        if (holder == null || !holder.granted()) {
            return Optional.empty();
        }
        long left = answer.getStat().getMtime()
                + holder.leaseMillis()
                - clock.read(key).serverMillis();
        return left > 0 ? Optional.of(Duration.ofMillis(left)) : Optional.empty();
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
        events.shutdown();
        cleanup.shutdown();
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

    /**
     * Where queue nodes left by acquisitions given up on are removed, one at a time, off Curator's event thread and
     * off the thread that reports lost leases: each removal may wait for ZooKeeper.
     */
    Executor cleanup() {
        return cleanup;
    }

    /** Runs a lost-lease callback on the store's thread, or on the caller's once the store is closed. */
    void report(Runnable gone) {
        try {
            events.execute(gone);
        } catch (RejectedExecutionException e) {
            gone.run();
        }
    }

    /** Settings of a {@link ZooKeeperLeaseStore}. */
    public static final class Builder {

        private final @Nullable CuratorFramework client;
        private final @Nullable String connectString;
        private String basePath = DEFAULT_BASE_PATH;
        private Duration sessionTimeout = Duration.ofSeconds(10);
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
            if (basePath == null) {
                throw new IllegalArgumentException("basePath must not be null");
            }
            PathUtils.validatePath(basePath);
            if (basePath.equals("/") || basePath.equals("/zookeeper") || basePath.startsWith("/zookeeper/")) {
                throw new IllegalArgumentException(
                        "basePath must not be / or inside /zookeeper, which ZooKeeper keeps for itself, but was "
                                + basePath);
            }
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
            if (client != null) {
                throw new IllegalStateException("the session timeout is the caller's client's setting");
            }
            if (sessionTimeout == null || sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("sessionTimeout must be at least 1 s, but was " + sessionTimeout);
            }
            this.sessionTimeout = sessionTimeout;
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

        /**
         * Creates the store, and for {@link #builder(String)} its client, which starts connecting.
         *
         * @return the store
         * @throws IllegalArgumentException if the caller's client was not started
         */
        public ZooKeeperLeaseStore build() {
            if (client != null) {
                if (client.getState() != CuratorFrameworkState.STARTED) {
                    throw new IllegalArgumentException("client must be started, but was " + client.getState());
                }
                return new ZooKeeperLeaseStore(client, false, basePath, callTimeout);
            }
            int sessionMillis = (int) sessionTimeout.toMillis();
            CuratorFramework own = CuratorFrameworkFactory.builder()
                    .connectString(connectString)
                    .sessionTimeoutMs(sessionMillis)
                    .connectionTimeoutMs(Math.min(sessionMillis, 15_000))
                    .retryPolicy(new ExponentialBackoffRetry(100, 3))
                    .build();
            own.start();
            return new ZooKeeperLeaseStore(own, true, basePath, callTimeout);
        }
    }
}
