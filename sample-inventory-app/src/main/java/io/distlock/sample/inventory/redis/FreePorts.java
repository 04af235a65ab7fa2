package io.distlock.sample.inventory.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports on the loopback interface that nothing listens on right now. */
public final class FreePorts {

    /** Redis's default port: a developer's own Redis may be there, and this sample must never touch it. */
    private static final int REDIS_DEFAULT_PORT = 6379;

    /** A Redis Cluster node also listens on its port plus this, for the cluster bus; Redis 6.2 cannot move it. */
    static final int CLUSTER_BUS_OFFSET = 10_000;

    private static final int HIGHEST_PORT = 65_535;

    private FreePorts() {}

    /**
     * A port the operating system just handed out as free; another process may take it before the caller binds it,
     * so callers retry on a bind failure.
     */
    public static int next() {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (socket.getLocalPort() != REDIS_DEFAULT_PORT) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("No free port on the loopback interface", e);
            }
        }
    }

    /**
     * A free port whose cluster bus port ({@code port + 10000}) is free too, for a Redis Cluster node; as with {@link
     * #next()}, another process may take either before the node binds them.
     */
    static int nextWithClusterBus() {
        while (true) {
            int port = next();
            if (port + CLUSTER_BUS_OFFSET <= HIGHEST_PORT && isFree(port + CLUSTER_BUS_OFFSET)) {
                return port;
            }
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return probe.isBound();
        } catch (IOException taken) {
            return false;
        }
    }
}
