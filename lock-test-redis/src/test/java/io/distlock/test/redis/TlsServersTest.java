package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.test.redis.TestRedis.Provider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Servers with a TLS port, spoken to over a plain JDK {@code SSLSocket}. */
@Timeout(30)
class TlsServersTest {

    @Test
    void answersPingOverTlsUnderBothLoopbackNamesAndKeepsItsPlainPort() throws IOException {
        try (TestRedis redis = startWithTls(false)) {
            SSLContext client = redis.certificates().clientSslContext();

            assertThat(TlsPing.ping(client, "127.0.0.1", redis.tlsPort())).isEqualTo("+PONG");
            assertThat(TlsPing.ping(client, "localhost", redis.tlsPort())).isEqualTo("+PONG");
            assertThat(redis.command("PING")).isEqualTo("PONG");
            assertThat(redis.tlsPort()).isNotEqualTo(redis.port());
            assertThat(redis.command("CONFIG", "GET", "tls-auth-clients")).isEqualTo("tls-auth-clients\nno");
            assertThat(redis.description()).endsWith(" (TLS on port " + redis.tlsPort() + ")");
        }
    }

    @Test
    void refusesAClientThatDoesNotTrustItsCa() {
        try (TestRedis redis = startWithTls(false);
                TestCertificates stranger = TestCertificates.generate()) {
            assertThatThrownBy(() -> TlsPing.ping(stranger.clientSslContext(), redis.host(), redis.tlsPort()))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("PKIX path");
        }
    }

    @Test
    void mutualTlsAcceptsOnlyClientsWithACertificateFromItsCa() throws Exception {
        try (TestRedis redis = startWithTls(true)) {
            SSLContext anonymous = SSLContext.getInstance("TLS");
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(redis.certificates().trustStore());
            anonymous.init(null, trust.getTrustManagers(), null);

            assertThat(TlsPing.ping(redis.certificates().clientSslContext(), redis.host(), redis.tlsPort()))
                    .isEqualTo("+PONG");
            // With TLS 1.3 the server judges the client's certificate after the client's handshake has finished, so
            // the refusal may only show when reading the reply.
            assertThatThrownBy(() -> TlsPing.ping(anonymous, redis.host(), redis.tlsPort()))
                    .isInstanceOf(IOException.class);
            assertThat(redis.command("CONFIG", "GET", "tls-auth-clients")).isEqualTo("tls-auth-clients\nyes");
        }
    }

    @Test
    void keepsItsTlsPortAndCertificatesAcrossKillAndStartAgain() throws IOException {
        try (TestRedis redis = startWithTls(false)) {
            int tlsPort = redis.tlsPort();

            redis.kill();
            assertThat(PortProbe.isListening(redis.host(), tlsPort)).isFalse();
            redis.startAgain();

            assertThat(redis.tlsPort()).isEqualTo(tlsPort);
            assertThat(TlsPing.ping(redis.certificates().clientSslContext(), redis.host(), tlsPort))
                    .isEqualTo("+PONG");
        }
    }

    @Test
    void closeDeletesTheCertificates() {
        TestRedis redis = startWithTls(false);
        Path directory = redis.certificates().caCertificate().getParent();
        assertThat(directory).isDirectory();

        redis.close();

        assertThat(directory).doesNotExist();
    }

    @Test
    void aServerWithoutTlsSaysSoWhenAskedForItsTlsPort() {
        try (TestRedis redis = TestRedis.start()) {
            assertThatThrownBy(redis::tlsPort)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has no TLS port")
                    .hasMessageContaining(".tls()");
            assertThatThrownBy(redis::certificates).isInstanceOf(IllegalStateException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void eachLocalBinaryServesTlsOrNamesItselfAndWhyItCannot(Provider provider) throws IOException {
        boolean installed = provider == Provider.PATH
                ? RedisExecutable.onPath().isPresent()
                : EmbeddedBinary.resourceName().isPresent();
        assumeTrue(installed, provider + " has no redis-server on this machine");
        TlsSupport support = TestRedis.tlsSupport(provider);

        if (support.available()) {
            assertThat(support.reason()).startsWith("redis-server ").contains(" serves TLS");
            try (TestRedis redis = TestRedis.builder().provider(provider).tls().start()) {
                assertThat(TlsPing.ping(redis.certificates().clientSslContext(), redis.host(), redis.tlsPort()))
                        .isEqualTo("+PONG");
            }
        } else {
            assertThat(support.reason()).startsWith("redis-server ").contains("built without TLS support");
            assertThatThrownBy(
                            () -> TestRedis.builder().provider(provider).tls().start())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("redis-server ")
                    .hasMessageContaining(" cannot serve TLS: it was built without TLS support");
        }
    }

    @Test
    void testcontainersServersCannotHaveTlsAndSayWhy() {
        TlsSupport support = TestRedis.tlsSupport(Provider.TESTCONTAINERS);

        assertThat(support.available()).isFalse();
        assertThat(support.reason()).contains("PATH", "EMBEDDED");
        assertThatThrownBy(() -> TestRedis.builder()
                        .provider(Provider.TESTCONTAINERS)
                        .tls()
                        .start())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage(support.reason());
    }

    /**
     * No binary built without TLS is at hand, so a script stands in for one, printing what such a build prints: Redis
     * up to 7.0 rejects the directive, Redis from 7.2 has no TLS connection type.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "*** FATAL CONFIG FILE ERROR (Redis 6.0.99) ***\n>>> 'tls-port \"41235\"'\n"
                        + "Bad directive or wrong number of arguments",
                "1:M 01 Jan 2026 00:00:00.000 # Missing implement of connection type tls\n"
                        + "1:M 01 Jan 2026 00:00:00.000 # Failed finding connection listener of tls"
            })
    void aBinaryWithoutTlsFailsNamingItselfItsVersionAndTheReason(String startupOutput, @TempDir Path directory)
            throws IOException {
        assumeFalse(Os.isWindows(), "the stand-in binary is a POSIX shell script");
        Path script = directory.resolve("redis-server");
        Files.writeString(
                script,
                "#!/bin/sh\n"
                        + "if [ \"$1\" = --version ]; then echo 'Redis server v=6.0.99 sha=0 malloc=libc bits=64'; exit 0; fi\n"
                        + "cat <<'OUTPUT'\n" + startupOutput + "\nOUTPUT\n"
                        + "exit 1\n",
                UTF_8);
        assertThat(script.toFile().setExecutable(true, true)).isTrue();
        RedisExecutable withoutTls = new RedisExecutable(script, "redis-server " + RedisExecutable.version(script));

        assertThatThrownBy(() -> TlsLauncher.start(withoutTls, new ServerOptions(null, List.of(), null), false))
                .isInstanceOf(TlsLauncher.NoTlsException.class)
                .hasMessageStartingWith("redis-server 6.0.99 (" + script + ") cannot serve TLS")
                .hasMessageContaining("built without TLS support")
                .hasMessageContaining("TestRedis.tlsSupport(provider)")
                .hasMessageContaining(startupOutput.lines().findFirst().orElseThrow());
    }

    private static TestRedis startWithTls(boolean mutual) {
        TlsSupport support = TestRedis.tlsSupport(Provider.PATH);
        assumeTrue(support.available(), support.reason());
        TestRedis.Builder builder = TestRedis.builder().provider(Provider.PATH);
        return (mutual ? builder.mutualTls() : builder.tls()).start();
    }
}
