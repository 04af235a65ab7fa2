package io.distlock.tck.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands out free TCP ports on 127.0.0.1 for a test's throwaway servers and proxies, each at most once per JVM, and
 * never the port a developer's own Redis listens on.
 */
public final class FreePorts {

    /** Developers often run a real Redis here; a test that touched it could destroy their data. */
    static final int DEVELOPER_REDIS_PORT = 6379;

    /** The address every port handed out is free on. */
    public static final String LOOPBACK_HOST = "127.0.0.1";

    private static final int BACKLOG = 50;

    private static final int MAX_PORT = 65535;

    /**
     * A port is handed out at most once per JVM so that a server that is briefly down (between {@code kill()} and
     * {@code startAgain()}) cannot lose its port to another test of the same JVM.
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {}

    /**
     * Returns a port that was free on 127.0.0.1 a moment ago and was never returned before in this JVM.
     *
     * <p>Another process can still take the port before the caller binds it, so callers that start servers should
     * retry with a new port when binding fails.
     *
     * @return a free port, never 6379
     */
    public static int next() {
        while (true) {
            try (ServerSocket socket = bindLoopback()) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Could not find a free port on " + LOOPBACK_HOST, e);
            }
        }
    }

    /**
     * Hands out {@code port} too, if it is free on 127.0.0.1 now and was never handed out in this JVM: for a server
     * that also listens on a port fixed by its own, such as a Redis Cluster node's bus port.
     *
     * @param port the port, at most 65535
     * @return whether the port was free and is now handed out; false if it is not, or is above 65535
     */
    public static boolean claim(int port) {
        return port <= MAX_PORT && port != DEVELOPER_REDIS_PORT && isFree(port) && HANDED_OUT.add(port);
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, BACKLOG, InetAddress.getByName(LOOPBACK_HOST))) {
            return socket.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    /** Binds a server socket to a kernel-chosen port on 127.0.0.1 that is not the developer's Redis port. */
    static ServerSocket bindLoopback() throws IOException {
        InetAddress loopback = InetAddress.getByName(LOOPBACK_HOST);
        while (true) {
            ServerSocket socket = new ServerSocket(0, BACKLOG, loopback);
            if (socket.getLocalPort() != DEVELOPER_REDIS_PORT) {
                return socket;
            }
            socket.close();
        }
    }
}
