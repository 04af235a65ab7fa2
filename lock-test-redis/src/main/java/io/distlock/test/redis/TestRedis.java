package io.distlock.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;

/**
 * A real, throwaway Redis server on a free port (never 6379) for tests.
 *
 * <pre>{@code
 * try (TestRedis redis = TestRedis.start()) {
 *     redis.command("SET", "k", "v");
 * }
 * }</pre>
 *
 * <p>Servers start with persistence off, protected mode off and their own temp directory as working dir. Where they
 * come from is decided once per JVM (see {@link Provider}) unless a test forces a provider with {@link
 * Builder#provider(Provider)}. Instances are thread-safe.
 *
 * <p>A server started with {@link Builder#tls()} also listens for TLS on {@link #tlsPort()}, with throwaway {@link
 * #certificates()}; its plain port keeps working, for {@link #command(String...)} and for clients that need no TLS:
 *
 * <pre>{@code
 * TlsSupport tls = TestRedis.tlsSupport(Provider.PATH);
 * assumeTrue(tls.available(), tls.reason());
 * try (TestRedis redis = TestRedis.builder().provider(Provider.PATH).tls().start()) {
 *     SSLSocket socket = (SSLSocket) redis.certificates().clientSslContext().getSocketFactory()
 *             .createSocket(redis.host(), redis.tlsPort());
 * }
 * }</pre>
 */
public final class TestRedis implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private static TestRedis shared;

    private final RedisBackend backend;
    private final ServerOptions options;
    private final Provider provider;
    private final boolean isShared;

    private TestRedis(RedisBackend backend, ServerOptions options, Provider provider, boolean isShared) {
        this.backend = backend;
        this.options = options;
        this.provider = provider;
        this.isShared = isShared;
        LiveServers.add(backend);
    }

    /** Wraps a server that a topology such as {@link TestRedisCluster} started, so tests drive it like any other. */
    static TestRedis of(RedisBackend backend, ServerOptions options, Provider provider) {
        return new TestRedis(backend, options, provider, false);
    }

    /**
     * Starts a fresh server with default options from the default provider.
     *
     * @return the running server; close it when the test is done
     */
    public static TestRedis start() {
        return builder().start();
    }

    /**
     * Returns a builder for a server with a password, extra config directives or a specific provider.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the JVM-wide server, starting it on first use; a JVM shutdown hook stops it.
     *
     * <p>For tests that just need "a Redis" and clean up their own keys. Other tests use it too, so it refuses {@link
     * #kill()}, {@link #startAgain()}, {@link #pause()} and {@link #resume()}, and {@link #close()} does nothing.
     *
     * @return the shared server, started with default options
     */
    public static synchronized TestRedis shared() {
        if (shared == null) {
            shared = builder().start(true);
        }
        return shared;
    }

    /**
     * Returns the provider that servers use unless they force one: {@code distlock.test.redis} (system property) or
     * {@code DISTLOCK_TEST_REDIS} (environment variable) if set, otherwise the first available of {@link
     * Provider#TESTCONTAINERS}, {@link Provider#PATH} and {@link Provider#EMBEDDED}. Decided and logged once per JVM.
     *
     * @return the default provider
     */
    public static Provider defaultProvider() {
        return ProviderSelection.defaultProvider();
    }

    /**
     * Tells whether servers from {@code provider} can have a TLS port: only local processes can, and only from a
     * redis-server built with TLS. The first call for a provider starts a TLS server to find out; later calls answer
     * from memory.
     *
     * @param provider the provider to check
     * @return whether {@link Builder#tls()} works with it, and why not if it does not, naming the binary and its version
     * @throws IllegalStateException if the check's server failed to start for another reason than missing TLS
     */
    public static TlsSupport tlsSupport(Provider provider) {
        return TlsLauncher.support(Objects.requireNonNull(provider, "provider"));
    }

    /**
     * Returns where this server came from.
     *
     * @return the provider that started this server
     */
    public Provider provider() {
        return provider;
    }

    /**
     * Returns the host to connect to.
     *
     * @return {@code 127.0.0.1} for process providers; the Docker host for {@link Provider#TESTCONTAINERS}
     */
    public String host() {
        return backend.host();
    }

    /**
     * Returns the port the server listens on; it stays the same across {@link #kill()} and {@link #startAgain()}.
     *
     * @return the port, never 6379
     */
    public int port() {
        return backend.port();
    }

    /**
     * Returns the port on which the server speaks TLS; it stays the same across {@link #kill()} and {@link
     * #startAgain()}.
     *
     * @return the TLS port, never 6379 and never {@link #port()}
     * @throws IllegalStateException if the server was not started with {@link Builder#tls()} or {@link
     *     Builder#mutualTls()}
     */
    public int tlsPort() {
        return requireTls().port();
    }

    /**
     * Returns the certificates the server presents on its {@link #tlsPort()}, and the CA that clients trust to accept
     * them. They belong to the server: {@link #close()} deletes their files.
     *
     * @return the certificates; with a client certificate for a server started with {@link Builder#mutualTls()}
     * @throws IllegalStateException if the server was not started with {@link Builder#tls()} or {@link
     *     Builder#mutualTls()}
     */
    public TestCertificates certificates() {
        return requireTls().certificates();
    }

    /**
     * Returns the password of the default user.
     *
     * @return the {@code requirepass} password, or {@code null} when the server has none
     */
    public String password() {
        return options.password();
    }

    /**
     * Returns a connection URI as Lettuce and Spring Data Redis understand it.
     *
     * @return {@code redis://[:password@]host:port}, with the password percent-encoded
     */
    public String uri() {
        return RedisUri.of(host(), port(), password());
    }

    /**
     * Describes the server for test output.
     *
     * @return for example {@code redis-server 7.0.15 from PATH on port 41234}, followed by {@code (TLS on port 41235)}
     *     for a server with a TLS port
     */
    public String description() {
        return options.tls() == null
                ? backend.description()
                : backend.description() + " (TLS on port " + tlsPort() + ")";
    }

    /**
     * Kills the server abruptly (SIGKILL, or {@code docker kill}) and returns once its port refuses connections. All
     * data is lost, as nothing is persisted.
     *
     * @throws IllegalStateException if the server is not running
     */
    public void kill() {
        requireOwn("kill()");
        backend.kill();
    }

    /**
     * Starts a killed server again on the same port with the same options, and returns once it answers PING.
     *
     * @throws IllegalStateException if the server is still running or cannot start
     */
    public void startAgain() {
        requireOwn("startAgain()");
        backend.startAgain();
    }

    /**
     * Freezes the server (SIGSTOP, or {@code docker pause}): it keeps accepting connections but answers nothing until
     * {@link #resume()}, which is how a hung Redis looks to a client.
     *
     * @throws UnsupportedOperationException on Windows, which has no SIGSTOP
     */
    public void pause() {
        requireOwn("pause()");
        backend.pause();
    }

    /**
     * Lets a {@link #pause() paused} server run again; it then answers the commands that waited.
     *
     * @throws UnsupportedOperationException on Windows, which has no SIGCONT
     */
    public void resume() {
        requireOwn("resume()");
        backend.resume();
    }

    /** Deletes all keys of all databases. */
    public void flushAll() {
        command("FLUSHALL");
    }

    /**
     * Runs one command on a new connection, authenticating first if the server has a password.
     *
     * @param args the command name and its arguments, for example {@code "GET", "key"}
     * @return simple strings, integers and bulk strings as text, a nil reply as {@code null}, arrays as their elements
     *     joined by line feeds (nil elements as empty lines)
     * @throws IllegalStateException with Redis's error text when Redis answers with an error
     * @throws UncheckedIOException when the server cannot be reached or does not answer within 10 seconds
     */
    public String command(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("A Redis command needs at least its name");
        }
        try {
            return RespConnection.callOnce(host(), port(), password(), COMMAND_TIMEOUT, args);
        } catch (IOException e) {
            throw new UncheckedIOException(args[0] + " failed on " + description() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stops the server and deletes its temp directory and its {@link #certificates()}; calling it again does nothing.
     * Does nothing at all on the {@link #shared()} server, which a shutdown hook stops.
     */
    @Override
    public void close() {
        if (!isShared) {
            backend.stop();
            LiveServers.remove(backend);
            if (options.tls() != null) {
                options.tls().certificates().close();
            }
        }
    }

    /**
     * Returns the {@link #description()}, so assertion messages name the server.
     *
     * @return the description
     */
    @Override
    public String toString() {
        return description();
    }

    private void requireOwn(String operation) {
        if (isShared) {
            throw new UnsupportedOperationException(operation + " would disturb every other test using the shared "
                    + "server; start a server of your own with TestRedis.start()");
        }
    }

    private ServerTls requireTls() {
        if (options.tls() == null) {
            throw new IllegalStateException(
                    description() + " has no TLS port; start it with TestRedis.builder().tls() or .mutualTls()");
        }
        return options.tls();
    }

    /** Where a test Redis server comes from. */
    public enum Provider {
        /** A {@code redis:7.4-alpine} container started by Testcontainers; needs a running Docker engine. */
        TESTCONTAINERS,
        /** The {@code redis-server} executable found on the {@code PATH}. */
        PATH,
        /** The redis-server binary bundled in the {@code embedded-redis} jar, extracted to a temp directory. */
        EMBEDDED
    }

    /** Options for a server of one's own; obtained from {@link TestRedis#builder()}. */
    public static final class Builder {

        private final ServerLaunch launch = new ServerLaunch();

        private Builder() {}

        /**
         * Protects the default user with a password ({@code requirepass}).
         *
         * @param password a non-empty password
         * @return this builder
         */
        public Builder password(String password) {
            launch.password(password);
            return this;
        }

        /**
         * Adds {@code redis.conf} directives, passed to redis-server as command-line arguments. Tokens are separated
         * by whitespace and may be quoted with {@code "} or {@code '}, for example {@code "maxmemory 10mb"} or
         * <code>"user app on &gt;pw ~&#123;distlock:* resetchannels &amp;distlock:* +@all"</code>.
         *
         * @param directives one directive per string
         * @return this builder
         */
        public Builder configLine(String... directives) {
            launch.configLines(directives);
            return this;
        }

        /**
         * Forces where the server comes from instead of {@link TestRedis#defaultProvider()}.
         *
         * @param provider the provider to use
         * @return this builder
         */
        public Builder provider(Provider provider) {
            launch.provider(provider);
            return this;
        }

        /**
         * Adds a TLS port with newly generated {@link TestRedis#certificates()} ({@code tls-port}, {@code
         * tls-cert-file}, {@code tls-key-file}, {@code tls-ca-cert-file}); clients need not present a certificate
         * ({@code tls-auth-clients no}). The plain port stays open.
         *
         * <p>Only the {@link Provider#PATH} and {@link Provider#EMBEDDED} providers can, with a binary built with TLS;
         * {@link TestRedis#tlsSupport(Provider)} tells up front.
         *
         * @return this builder
         */
        public Builder tls() {
            launch.tls(false);
            return this;
        }

        /**
         * Like {@link #tls()}, but TLS clients must present a certificate signed by the server's CA ({@code
         * tls-auth-clients yes}); the certificates then include a client certificate. The plain port still takes
         * anyone.
         *
         * @return this builder
         */
        public Builder mutualTls() {
            launch.tls(true);
            return this;
        }

        /**
         * Starts the server and waits until it answers PING on its plain port.
         *
         * @return the running server; close it when the test is done
         * @throws IllegalStateException if the server cannot start, with the end of its log; for a TLS server whose
         *     binary was built without TLS, naming the binary, its version and that reason
         * @throws UnsupportedOperationException for a TLS server from {@link Provider#TESTCONTAINERS}
         */
        public TestRedis start() {
            return start(false);
        }

        private TestRedis start(boolean isShared) {
            ServerLaunch.Launched launched = launch.start();
            return new TestRedis(launched.backend(), launched.options(), launched.provider(), isShared);
        }
    }
}
