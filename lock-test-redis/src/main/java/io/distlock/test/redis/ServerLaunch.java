package io.distlock.test.redis;

import io.distlock.test.redis.TestRedis.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The launch of a server of one's own: what a test asked for through {@link TestRedis.Builder} (password, config
 * directives, provider, TLS), checked as it is asked, and how such a server is started: as a container or a local
 * process of the provider asked for or the JVM's default, with a TLS port and new certificates if asked. {@link
 * TestRedis} only drives the server once it runs.
 */
final class ServerLaunch {

    private String password;
    private final List<String> configDirectives = new ArrayList<>();
    private Provider provider;
    private boolean tls;
    private boolean clientCertificatesRequired;

    /** A started server: its backend, the options it runs with (with TLS, its certificates) and its provider. */
    record Launched(RedisBackend backend, ServerOptions options, Provider provider) {}

    void password(String password) {
        if (Objects.requireNonNull(password, "password").isEmpty()) {
            throw new IllegalArgumentException("An empty requirepass means no password; leave it unset instead");
        }
        this.password = password;
    }

    void configLines(String... directives) {
        for (String directive : directives) {
            // Parsed now so that a malformed directive fails where it is written, not at start().
            ConfigArgs.of(directive);
        }
        configDirectives.addAll(Arrays.asList(directives));
    }

    void provider(Provider provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    /** Asks for a TLS port; clients must present a certificate if {@code clientCertificatesRequired}. */
    void tls(boolean clientCertificatesRequired) {
        this.tls = true;
        this.clientCertificatesRequired = clientCertificatesRequired;
    }

    /** Starts the server and waits until it answers PING on its plain port. */
    Launched start() {
        Provider chosen = provider != null ? provider : ProviderSelection.defaultProvider();
        ServerOptions options = new ServerOptions(password, configDirectives, null);
        if (!tls) {
            RedisBackend backend = chosen == Provider.TESTCONTAINERS
                    ? ContainerBackend.start(options)
                    : ProcessBackend.start(executable(chosen), options);
            return new Launched(backend, options, chosen);
        }
        if (chosen == Provider.TESTCONTAINERS) {
            throw new UnsupportedOperationException(TlsLauncher.CONTAINER_REASON);
        }
        TlsLauncher.Started started = TlsLauncher.start(executable(chosen), options, clientCertificatesRequired);
        return new Launched(started.backend(), started.options(), chosen);
    }

    /** The redis-server binary that a process provider runs. */
    static RedisExecutable executable(Provider provider) {
        return switch (provider) {
            case PATH ->
                RedisExecutable.onPath()
                        .orElseThrow(() -> new IllegalStateException("No redis-server executable on PATH"));
            case EMBEDDED -> RedisExecutable.embedded();
            case TESTCONTAINERS ->
                throw new IllegalArgumentException("Testcontainers runs redis-server in a container, not locally");
        };
    }
}
