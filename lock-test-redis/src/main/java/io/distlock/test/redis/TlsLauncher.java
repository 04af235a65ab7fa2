package io.distlock.test.redis;

import io.distlock.tck.net.FreePorts;
import io.distlock.test.redis.TestRedis.Provider;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Starts redis-server processes with a TLS port next to the plain one, and tells a binary built without TLS from any
 * other failure to start, so that tests can skip for the one and fail for the others.
 */
final class TlsLauncher {

    static final String CONTAINER_REASON = "TLS test servers run only as local redis-server processes (providers PATH "
            + "and EMBEDDED); the TESTCONTAINERS provider does not pass the generated certificates into its container";

    private static final int PORT_ATTEMPTS = 3;

    /** Redis up to 7.0 built without TLS does not know the directive: {@code >>> 'tls-port "41234"'}. */
    private static final String UNKNOWN_TLS_DIRECTIVE = ">>> 'tls-port ";
    /** Redis from 7.2 knows the directive whether or not it was built with TLS, and fails to listen instead. */
    private static final String NO_TLS_CONNECTIONS = "Missing implement of connection type tls";

    private static final Map<Provider, TlsSupport> SUPPORT = new EnumMap<>(Provider.class);

    private TlsLauncher() {}

    /**
     * Starts a server with {@code options} plus a TLS port with new certificates, which the returned options hold and
     * which belong to the server from then on.
     *
     * @throws NoTlsException if the binary was built without TLS
     */
    static Started start(RedisExecutable executable, ServerOptions options, boolean clientCertificatesRequired) {
        TestCertificates certificates = clientCertificatesRequired
                ? TestCertificates.generateWithClientCertificate()
                : TestCertificates.generate();
        try {
            return startOnFreeTlsPort(executable, options, certificates, clientCertificatesRequired);
        } catch (RuntimeException e) {
            certificates.close();
            throw e;
        }
    }

    /** Answers from a real start, once per provider and JVM, since no version number or flag tells reliably. */
    static synchronized TlsSupport support(Provider provider) {
        TlsSupport known = SUPPORT.get(provider);
        if (known == null) {
            known = probe(provider);
            SUPPORT.put(provider, known);
        }
        return known;
    }

    private static TlsSupport probe(Provider provider) {
        Optional<String> missing = missingBinary(provider);
        if (missing.isPresent()) {
            return new TlsSupport(false, missing.get());
        }
        String binary = ServerLaunch.executable(provider).label();
        try {
            TestRedis.builder().provider(provider).tls().start().close();
            return new TlsSupport(true, binary + " serves TLS");
        } catch (NoTlsException e) {
            return new TlsSupport(false, e.getMessage());
        }
    }

    private static Optional<String> missingBinary(Provider provider) {
        return switch (provider) {
            case TESTCONTAINERS -> Optional.of(CONTAINER_REASON);
            case PATH ->
                RedisExecutable.onPath().isPresent()
                        ? Optional.empty()
                        : Optional.of("No redis-server executable on PATH");
            case EMBEDDED ->
                EmbeddedBinary.resourceName().isPresent()
                        ? Optional.empty()
                        : Optional.of("embedded-redis has no redis-server for " + System.getProperty("os.name") + "/"
                                + System.getProperty("os.arch"));
        };
    }

    private static Started startOnFreeTlsPort(
            RedisExecutable executable,
            ServerOptions options,
            TestCertificates certificates,
            boolean clientCertificatesRequired) {
        for (int attempt = 1; ; attempt++) {
            ServerOptions withTls =
                    options.withTls(new ServerTls(FreePorts.next(), certificates, clientCertificatesRequired));
            try {
                return new Started(ProcessBackend.start(executable, withTls), withTls);
            } catch (IllegalStateException e) {
                String failure = String.valueOf(e.getMessage());
                if (failure.contains(UNKNOWN_TLS_DIRECTIVE) || failure.contains(NO_TLS_CONNECTIONS)) {
                    throw new NoTlsException(executable, e);
                }
                // ProcessBackend retries a taken plain port itself, but keeps the TLS port it was given.
                boolean tlsPortTaken = failure.toLowerCase(Locale.ROOT)
                        .contains("failed listening on port " + withTls.tls().port() + " (tls)");
                if (!tlsPortTaken || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** A started server and the options it runs with, including the TLS port that was free. */
    record Started(RedisBackend backend, ServerOptions options) {}

    /** The binary cannot serve TLS at all, which no retry or other port can change. */
    static final class NoTlsException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        NoTlsException(RedisExecutable executable, IllegalStateException failure) {
            super(
                    executable.label() + " (" + executable.path() + ") cannot serve TLS: it was built without TLS "
                            + "support (Redis needs BUILD_TLS=yes at compile time). Put a redis-server built with TLS "
                            + "on the PATH, or check up front with TestRedis.tlsSupport(provider). "
                            + failure.getMessage(),
                    failure);
        }
    }
}
