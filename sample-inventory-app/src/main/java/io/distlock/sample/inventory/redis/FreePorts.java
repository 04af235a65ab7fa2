package io.distlock.sample.inventory.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports on the loopback interface that nothing listens on right now. */
public final class FreePorts {

    /** Redis's default port: a developer's own Redis may be there, and this sample must never touch it. */
    private static final int REDIS_DEFAULT_PORT = 6379;

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
}
