package io.distlock.tck.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on a free 127.0.0.1 port that forwards to one target and can pause, slow down or cut the traffic, so tests
 * can show how a client behaves when the network between it and Redis misbehaves.
 *
 * <pre>{@code
 * try (TestRedis redis = TestRedis.start(); TcpProxy proxy = TcpProxy.start(redis.host(), redis.port())) {
 *     // point the client at 127.0.0.1:proxy.port(), then:
 *     proxy.pause();
 * }
 * }</pre>
 *
 * <p>Bytes are forwarded as they arrive, in order, with no buffering beyond one chunk per direction and connection.
 * Instances are thread-safe.
 */
public final class TcpProxy implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TcpProxy.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final ForwardingFaults faults = new ForwardingFaults();
    private final Set<ProxyConnection> connections = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    private TcpProxy(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
        this.acceptor = new Thread(this::acceptLoop, "distlock-proxy " + server.getLocalPort() + " accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Starts a proxy that forwards every connection it accepts to the target.
     *
     * @param targetHost the host to forward to
     * @param targetPort the port to forward to
     * @return the running proxy; close it when the test is done
     */
    public static TcpProxy start(String targetHost, int targetPort) {
        InetSocketAddress target = new InetSocketAddress(targetHost, targetPort);
        if (target.isUnresolved()) {
            throw new IllegalArgumentException("Cannot resolve proxy target host " + targetHost);
        }
        ServerSocket server;
        try {
            server = FreePorts.bindLoopback();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not bind a proxy port on " + FreePorts.LOOPBACK_HOST, e);
        }
        TcpProxy proxy = new TcpProxy(server, target);
        proxy.acceptor.start();
        return proxy;
    }

    /**
     * Returns the port clients connect to instead of the target's.
     *
     * @return the proxy's port on 127.0.0.1
     */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Stops forwarding in both directions on every connection, including ones accepted later, until {@link #resume()}.
     * Connections stay open and no bytes are lost: they wait in the proxy and the kernel's buffers and flow on resume.
     */
    public void pause() {
        faults.pause();
    }

    /**
     * From now on, stalls each connection on which the client sends {@code marker}: that request and everything after
     * it, in both directions, is held back until {@link #resume()}, while other connections keep working. This is how
     * a test makes one pooled connection, or the requests for one key, hang. The marker is found within one read
     * chunk, which holds a whole small request.
     *
     * @param marker bytes to look for in what clients send, such as a key's name
     */
    public void stallConnectionsCarrying(byte[] marker) {
        faults.stallCarrying(marker);
    }

    /** Forwards again everything held back since {@link #pause()} or by stalled connections, and stops stalling. */
    public void resume() {
        faults.resume();
    }

    /**
     * Delays every forwarded chunk, in each direction, and the set-up of each new upstream connection by at least
     * {@code oneWay}; a request/reply round trip therefore takes at least twice as long. Applies from now on.
     *
     * @param oneWay the delay per direction; {@link Duration#ZERO} turns it off
     */
    public void latency(Duration oneWay) {
        faults.latency(oneWay);
    }

    /** Closes every current client and upstream connection, as a network failure would; new connections still work. */
    public void dropConnections() {
        for (ProxyConnection connection : List.copyOf(connections)) {
            connection.close();
        }
    }

    /** Stops listening and closes all connections; calling it again does nothing. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
            // The JDK defers the real close of a socket until a thread blocked in accept() on it has left, and until
            // then the kernel keeps accepting connections on the port.
            acceptor.join(CLOSE_TIMEOUT.toMillis());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not close proxy port " + port(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        dropConnections();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("Proxy on port {} stopped accepting connections", port(), e);
                }
                return;
            }
            ProxyConnection connection = new ProxyConnection(client, target, faults, connections::remove);
            connections.add(connection);
            if (closed) {
                connection.close();
                return;
            }
            connection.start();
        }
    }
}
