package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.test.redis.TestRedis.Provider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every provider that runs a local redis-server process, against real servers. */
@Timeout(30)
class ProcessProvidersTest {

    /** The port of the machine's own Redis, which tests must never use. */
    private static final int SHARED_REDIS_PORT = 6379;

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void startsAnswersAndFreesItsPortAndDirectoryOnClose(Provider provider) throws IOException {
        TestRedis redis = start(provider);
        Path directory;
        int port;
        try {
            port = redis.port();
            assertThat(port).isNotEqualTo(SHARED_REDIS_PORT);
            assertThat(redis.host()).isEqualTo("127.0.0.1");
            assertThat(redis.provider()).isEqualTo(provider);
            assertThat(redis.description()).startsWith("redis-server ").endsWith(" on port " + port);
            assertThat(redis.command("PING")).isEqualTo("PONG");
            assertThat(redis.command("SET", "greeting", "hello")).isEqualTo("OK");
            assertThat(redis.command("GET", "greeting")).isEqualTo("hello");
            assertThat(redis.command("GET", "missing")).isNull();
            directory = Path.of(redis.command("CONFIG", "GET", "dir").split("\n")[1]);
            assertThat(directory).isDirectory();
        } finally {
            redis.close();
        }
        redis.close();

        assertThat(directory).doesNotExist();
        try (ServerSocket rebound = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(rebound.getLocalPort()).isEqualTo(port);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void killThenStartAgainKeepsThePortAndLosesTheData(Provider provider) {
        try (TestRedis redis = start(provider)) {
            int port = redis.port();
            redis.command("SET", "survives", "no");

            redis.kill();
            assertThat(PortProbe.isListening(redis.host(), port)).isFalse();
            assertThatThrownBy(() -> redis.command("PING")).isInstanceOf(UncheckedIOException.class);

            redis.startAgain();
            assertThat(redis.port()).isEqualTo(port);
            assertThat(redis.command("PING")).isEqualTo("PONG");
            assertThat(redis.command("GET", "survives")).isNull();
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void pauseStopsAnswersAndResumeBringsThemBack(Provider provider) {
        try (TestRedis redis = start(provider)) {
            redis.pause();
            assertThatThrownBy(() -> {
                        try (RespConnection connection =
                                RespConnection.open(redis.host(), redis.port(), Duration.ofMillis(300))) {
                            connection.call("PING");
                        }
                    })
                    .isInstanceOf(SocketTimeoutException.class);

            redis.resume();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void aPausedServerCanBeKilledAndStartedAgain(Provider provider) {
        try (TestRedis redis = start(provider)) {
            redis.pause();
            redis.kill();
            redis.startAgain();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void startAgainRefusesARunningServer(Provider provider) {
        try (TestRedis redis = start(provider)) {
            assertThatThrownBy(redis::startAgain)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("kill()");
        }
    }

    private static TestRedis start(Provider provider) {
        boolean available = provider == Provider.PATH
                ? RedisExecutable.onPath().isPresent()
                : EmbeddedBinary.resourceName().isPresent();
        assumeTrue(available, provider + " has no redis-server on this machine");
        return TestRedis.builder().provider(provider).start();
    }
}
