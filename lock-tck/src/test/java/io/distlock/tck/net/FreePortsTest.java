package io.distlock.tck.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    /** The port of the machine's own Redis, which tests must never use. */
    private static final int SHARED_REDIS_PORT = 6379;

    @Test
    void handsOutDistinctBindablePortsButNever6379() throws IOException {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            ports.add(FreePorts.next());
        }
        assertThat(ports).hasSize(200).doesNotContain(SHARED_REDIS_PORT);
        int port = FreePorts.next();
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }
}
