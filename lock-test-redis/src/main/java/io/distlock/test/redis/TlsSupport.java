package io.distlock.test.redis;

/**
 * Whether a {@link TestRedis.Provider} can start servers with a TLS port, and why (not), for a JUnit assumption:
 *
 * <pre>{@code
 * TlsSupport tls = TestRedis.tlsSupport(Provider.PATH);
 * assumeTrue(tls.available(), tls.reason());
 * }</pre>
 *
 * @param available true if {@link TestRedis.Builder#tls()} works with the provider
 * @param reason which binary was checked and what it did, naming its version; when unavailable, why, for the skip
 *     message
 */
public record TlsSupport(boolean available, String reason) {}
