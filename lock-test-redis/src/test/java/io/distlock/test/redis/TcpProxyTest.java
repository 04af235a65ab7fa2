package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.tck.net.TcpProxy;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link TcpProxy} in front of a Redis, whose replies show what it forwarded, held back or delayed. */
@Timeout(30)
class TcpProxyTest {

    /** The port of the machine's own Redis, which tests must never use. */
    private static final int SHARED_REDIS_PORT = 6379;

    private static final byte[] PING = RespConnection.encode("PING");
    private static final byte[] PONG = "+PONG\r\n".getBytes(UTF_8);

    private final TestRedis redis = TestRedis.shared();
    private TcpProxy proxy;

    @BeforeEach
    void startProxy() {
        proxy = TcpProxy.start(redis.host(), redis.port());
    }

    @AfterEach
    void closeProxy() {
        proxy.close();
    }

    @Test
    void forwardsCommandsAndReplies() throws IOException {
        assertThat(proxy.port()).isNotEqualTo(redis.port()).isNotEqualTo(SHARED_REDIS_PORT);
        try (RespConnection connection = throughProxy(Duration.ofSeconds(5))) {
            assertThat(connection.call("SET", "proxy:key", "x".repeat(1_000_000)))
                    .isEqualTo("OK");
            assertThat(connection.call("GET", "proxy:key")).hasSize(1_000_000);
            assertThat(connection.call("DEL", "proxy:key")).isEqualTo("1");
        }
    }

    @Test
    void forwardsPipelinedCommandsSentInManySmallWrites() throws IOException {
        int commands = 2_000;
        try (Socket socket = rawClient(Duration.ofSeconds(10))) {
            for (int i = 0; i < commands; i++) {
                for (byte b : PING) {
                    socket.getOutputStream().write(b);
                }
            }
            byte[] replies = socket.getInputStream().readNBytes(PONG.length * commands);
            assertThat(new String(replies, UTF_8)).isEqualTo("+PONG\r\n".repeat(commands));
        }
    }

    @Test
    void pauseHoldsBytesBackAndResumeDeliversThem() throws IOException {
        try (Socket established = rawClient(Duration.ofMillis(300))) {
            assertThat(ping(established)).isEqualTo("+PONG\r\n");

            proxy.pause();
            established.getOutputStream().write(PING);
            assertThatThrownBy(() -> established.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            try (Socket newcomer = rawClient(Duration.ofMillis(300))) {
                newcomer.getOutputStream().write(PING);
                assertThatThrownBy(() -> newcomer.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);

                proxy.resume();
                established.setSoTimeout(5_000);
                newcomer.setSoTimeout(5_000);
                assertThat(readPong(established.getInputStream())).isEqualTo("+PONG\r\n");
                assertThat(readPong(newcomer.getInputStream())).isEqualTo("+PONG\r\n");
            }
        }
    }

    @Test
    void latencyDelaysEachDirection() throws IOException {
        Duration oneWay = Duration.ofMillis(150);
        try (Socket socket = rawClient(Duration.ofSeconds(5))) {
            ping(socket);

            proxy.latency(oneWay);
            assertThat(timedPing(socket)).isGreaterThanOrEqualTo(oneWay.multipliedBy(2));

            proxy.latency(Duration.ZERO);
            assertThat(timedPing(socket)).isLessThan(oneWay.multipliedBy(2));
        }
    }

    @Test
    void dropConnectionsClosesClientsButKeepsListening() throws IOException {
        try (Socket socket = rawClient(Duration.ofSeconds(5))) {
            ping(socket);

            proxy.dropConnections();
            assertThat(readUntilClosed(socket.getInputStream())).isTrue();
        }
        try (RespConnection connection = throughProxy(Duration.ofSeconds(5))) {
            assertThat(connection.call("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void closeStopsListening() {
        proxy.close();
        assertThat(PortProbe.isListening("127.0.0.1", proxy.port())).isFalse();
    }

    private RespConnection throughProxy(Duration timeout) throws IOException {
        return RespConnection.open("127.0.0.1", proxy.port(), timeout);
    }

    private Socket rawClient(Duration readTimeout) throws IOException {
        Socket socket = new Socket("127.0.0.1", proxy.port());
        socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
        return socket;
    }

    private static String ping(Socket socket) throws IOException {
        socket.getOutputStream().write(PING);
        return readPong(socket.getInputStream());
    }

    private static Duration timedPing(Socket socket) throws IOException {
        long start = System.nanoTime();
        assertThat(ping(socket)).isEqualTo("+PONG\r\n");
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static String readPong(InputStream in) throws IOException {
        return new String(in.readNBytes(PONG.length), UTF_8);
    }

    /** True once the proxy closed the connection, whether the kernel reports it as end of stream or as a reset. */
    private static boolean readUntilClosed(InputStream in) {
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
