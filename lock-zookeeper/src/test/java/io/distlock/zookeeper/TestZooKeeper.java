package io.distlock.zookeeper;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * An in-process ZooKeeper on a free port, with a short tick so that sessions of 1 s and more are allowed and expire on
 * time, and the Curator clients of one test class, which it closes.
 */
public final class TestZooKeeper implements AutoCloseable {

    static final int TICK_MILLIS = 100;

    /** ZooKeeper's own longest session, 20 ticks: a client that asks for a longer one gets this. */
    static final Duration DEFAULT_MAX_SESSION_TIMEOUT = Duration.ofMillis(20L * TICK_MILLIS);

    private static final int MAX_CONNECTIONS = 1000;

    private final TestingServer server;
    private final Duration maxSessionTimeout;
    private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

    public TestZooKeeper() throws Exception {
        this(DEFAULT_MAX_SESSION_TIMEOUT);
    }

    /** A server that grants sessions up to {@code maxSessionTimeout}, such as a client's default of 10 s. */
    public TestZooKeeper(Duration maxSessionTimeout) throws Exception {
        InstanceSpec spec = new InstanceSpec(
                null,
                InstanceSpec.getRandomPort(),
                -1,
                -1,
                true,
                -1,
                TICK_MILLIS,
                MAX_CONNECTIONS,
                Map.of("maxSessionTimeout", Long.toString(maxSessionTimeout.toMillis())),
                "127.0.0.1");
        server = new TestingServer(spec, true);
        this.maxSessionTimeout = maxSessionTimeout;
    }

    public String connectString() {
        return server.getConnectString();
    }

    TestingServer server() {
        return server;
    }

    /** The longest session the server grants, whatever a client asks for. */
    Duration maxSessionTimeout() {
        return maxSessionTimeout;
    }

    /** A started client with its own session, closed with this server. */
    CuratorFramework newClient(Duration sessionTimeout) throws InterruptedException {
        return newClient(connectString(), sessionTimeout);
    }

    /** A started client with its own session that connects to {@code connectString}, such as a proxy of this server. */
    CuratorFramework newClient(String connectString, Duration sessionTimeout) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs(5_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 3))
                .build();
        client.start();
        if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + connectString);
        }
        clients.add(client);
        return client;
    }

    CuratorFramework newClient() throws InterruptedException {
        return newClient(Duration.ofSeconds(10));
    }

    /**
     * Ends the client's session on the server, as an expiry does: another handle joins the session and closes it, so
     * the server removes the session's ephemeral nodes at once and the client learns of it when it reconnects.
     */
    void expireSession(CuratorFramework client) throws Exception {
        ZooKeeper current = client.getZookeeperClient().getZooKeeper();
        CountDownLatch joined = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(
                connectString(),
                10_000,
                event -> {
                    if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                        joined.countDown();
                    }
                },
                current.getSessionId(),
                current.getSessionPasswd());
        // Closing before the twin joined the session would not end it.
        if (!joined.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("could not join the session");
        }
        twin.close();
    }

    @Override
    public void close() throws IOException {
        for (CuratorFramework client : clients) {
            client.close();
        }
        server.close();
    }
}
