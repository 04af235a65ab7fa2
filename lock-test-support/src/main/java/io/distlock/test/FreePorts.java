package io.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Hands out free TCP ports on 127.0.0.1 for throwaway servers. */
public final class FreePorts {

    /** Developers often run a real Redis here; a test that touched it could destroy their data. */
    static final int DEVELOPER_REDIS_PORT = 6379;

    static final String LOOPBACK_HOST = "127.0.0.1";

    private static final int BACKLOG = 50;

    /** Redis 6 listens for its cluster bus this many ports above its client port, and cannot be told otherwise. */
    static final int CLUSTER_BUS_OFFSET = 10000;

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
     * Returns a free port for a Redis Cluster node whose cluster bus port, {@value #CLUSTER_BUS_OFFSET} higher, is
     * free as well; both are handed out.
     */
    static int nextWithClusterBus() {
        while (true) {
            int port = next();
            int bus = port + CLUSTER_BUS_OFFSET;
            if (bus <= MAX_PORT && isFree(bus) && HANDED_OUT.add(bus)) {
                return port;
            }
        }
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
