package io.distlock.tck.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One client connection through a {@link TcpProxy} and its upstream connection, each direction pumped by its own thread
 * so that order is preserved within a direction and pipelined traffic flows both ways at once. When either side closes,
 * both sockets close: Redis clients never half-close, so supporting it would only add states to get wrong.
 */
final class ProxyConnection {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final int CHUNK_SIZE = 16 * 1024;

    private final Socket client;
    private final Socket upstream = new Socket();
    private final InetSocketAddress target;
    private final ForwardingFaults faults;
    private final Consumer<ProxyConnection> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    ProxyConnection(
            Socket client, InetSocketAddress target, ForwardingFaults faults, Consumer<ProxyConnection> onClose) {
        this.client = client;
        this.target = target;
        this.faults = faults;
        this.onClose = onClose;
    }

    void start() {
        daemon("client->upstream", this::connectAndForward).start();
    }

    /** Closes both sockets, which ends both pump threads; calling it again does nothing. */
    void close() {
        if (closed.compareAndSet(false, true)) {
            closeQuietly(client);
            closeQuietly(upstream);
            faults.forget(this);
            onClose.accept(this);
        }
    }

    private void connectAndForward() {
        try {
            // A paused proxy must not even connect upstream: to the server, nothing has happened yet.
            faults.awaitForwarding(this, closed::get);
            upstream.connect(target, Math.toIntExact(CONNECT_TIMEOUT.toMillis()));
            upstream.setTcpNoDelay(true);
            client.setTcpNoDelay(true);
            InputStream fromUpstream = upstream.getInputStream();
            OutputStream toClient = client.getOutputStream();
            daemon("upstream->client", () -> pumpThenClose(fromUpstream, toClient, false))
                    .start();
            pump(client.getInputStream(), upstream.getOutputStream(), true);
        } catch (IOException e) {
            // One side went away or was dropped on purpose; either way the connection is over.
        } finally {
            close();
        }
    }

    private void pumpThenClose(InputStream in, OutputStream out, boolean fromClient) {
        try {
            pump(in, out, fromClient);
        } catch (IOException e) {
            // Same as above: the connection is over.
        } finally {
            close();
        }
    }

    private void pump(InputStream in, OutputStream out, boolean fromClient) throws IOException {
        byte[] chunk = new byte[CHUNK_SIZE];
        for (int read = in.read(chunk); read != -1; read = in.read(chunk)) {
            if (fromClient) {
                faults.inspect(this, chunk, read);
            }
            faults.awaitForwarding(this, closed::get);
            out.write(chunk, 0, read);
        }
    }

    private Thread daemon(String direction, Runnable task) {
        Thread thread = new Thread(task, "distlock-proxy " + client.getPort() + " " + direction);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is all that matters; a socket that fails to close is gone for our purposes.
        }
    }
}
