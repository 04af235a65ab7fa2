package io.distlock.bench.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Version;

/**
 * The run's throwaway ZooKeeper, Curator's {@link TestingServer} as lock-zookeeper's tests use it: one server, in this
 * JVM, on a free port, in a temporary directory that closing it removes.
 *
 * <p>It writes its transaction log without forcing each write to disk, ZooKeeper's {@code forceSync=no}: the run's
 * PostgreSQL commits without waiting for its log either (zonky's default, {@code synchronous_commit=off}), and Redis
 * does not sync at all by default, so every backend is measured on its own work, not on this machine's disk.
 */
final class ZooKeeperServer implements AutoCloseable {

    private static final String HOST = "127.0.0.1";

    private final TestingServer server;

    private ZooKeeperServer(TestingServer server) {
        this.server = server;
    }

    static ZooKeeperServer start() {
        try {
            InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1, Map.of("forceSync", "no"), HOST);
            return new ZooKeeperServer(new TestingServer(spec, true));
        } catch (Exception e) {
            throw new IllegalStateException("could not start the ZooKeeper TestingServer: " + e, e);
        }
    }

    String connectString() {
        return server.getConnectString();
    }

    /** For example {@code ZooKeeper 3.9.5 on 127.0.0.1:40001, in the harness's JVM}. */
    String description() {
        return "ZooKeeper " + Version.getFullVersion().split("[-, ]")[0] + " on " + connectString()
                + " (Curator's TestingServer, in the harness's JVM)";
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the ZooKeeper TestingServer", e);
        }
    }
}
