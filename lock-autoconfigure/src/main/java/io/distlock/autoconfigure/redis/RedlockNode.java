package io.distlock.autoconfigure.redis;

import io.distlock.autoconfigure.internal.SecretPropertyException;
import io.lettuce.core.RedisURI;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Where and how to reach one Redlock node. Its {@code url}, {@code redis://[[user]:password@]host[:port][/database]}
 * or {@code rediss://} for TLS, is read by Lettuce's {@link RedisURI} and made a server configuration by Spring Data
 * Redis ({@link LettuceConnectionFactory#createRedisConfiguration(RedisURI)}); the node's own {@code username} and
 * {@code password} take the place of the URL's.
 *
 * @param property the node's property prefix, such as {@code distlock.redlock.nodes[0]}, for messages
 * @param uri the node's URL as Lettuce read it, whose {@code toString()} masks the password
 * @param server the host, port, database and login of the node
 * @param ssl whether to reach the node over TLS
 * @param sslBundle the name of the SSL bundle to reach it with, or null
 */
record RedlockNode(
        String property,
        RedisURI uri,
        RedisStandaloneConfiguration server,
        boolean ssl,
        @Nullable String sslBundle) {

    private static final String FORM = "redis://[[user]:password@]host[:port][/database] or rediss://...";

    /**
     * Reads and checks a node's settings.
     *
     * @throws SecretPropertyException naming the node's URL property and what is allowed, if the URL is invalid; the
     *     URL may hold a password, so it is shown with everything between its scheme and host masked
     * @throws InvalidConfigurationPropertyValueException naming the node's other property that is invalid and what is
     *     allowed
     */
    static RedlockNode of(String property, RedlockProperties.Node node) {
        String urlProperty = property + ".url";
        String url = node.getUrl();
        if (url == null || url.isBlank()) {
            throw new SecretPropertyException(
                    urlProperty, url, "is required: every Redlock node needs a redis:// or rediss:// URL");
        }
        String stripped = url.strip();
        // Lettuce also reads Sentinel, Unix socket and other TLS schemes, which a node does not take.
        if (!stripped.startsWith(RedisURI.URI_SCHEME_REDIS + "://")
                && !stripped.startsWith(RedisURI.URI_SCHEME_REDIS_SECURE + "://")) {
            throw malformedUrl(urlProperty, url, "the scheme must be redis or rediss");
        }
        RedisURI uri;
        URI parsed;
        try {
            uri = RedisURI.create(stripped);
            // Lettuce parses the URL with java.net.URI. Where that finds no server in it (no host, or a port that is
            // not a number), Lettuce takes the whole authority for the host, which would fail only when connecting;
            // and it reads query parameters that the node's connection does not use.
            parsed = URI.create(stripped);
        } catch (NumberFormatException notADatabase) {
            throw malformedUrl(urlProperty, url, "its path must be a database number, such as /0");
        } catch (IllegalArgumentException malformed) {
            throw malformedUrl(urlProperty, url, unreadable(url, malformed, property));
        }
        if (parsed.getHost() == null) {
            throw malformedUrl(urlProperty, url, "it names no host, or its port is not a number");
        }
        if (parsed.getRawQuery() != null || parsed.getRawFragment() != null) {
            throw malformedUrl(
                    urlProperty,
                    url,
                    "query parameters and fragments are not read; set distlock.redlock.timeout and the node's"
                            + " properties instead");
        }
        RedisConfiguration configuration = LettuceConnectionFactory.createRedisConfiguration(uri);
        if (!(configuration instanceof RedisStandaloneConfiguration server)) {
            throw malformedUrl(urlProperty, url, "it names no single Redis server");
        }
        if (node.getUsername() != null) {
            server.setUsername(node.getUsername());
        }
        if (node.getPassword() != null) {
            server.setPassword(RedisPassword.of(node.getPassword()));
        }
        if (server.getUsername() != null && !server.getPassword().isPresent()) {
            throw new InvalidConfigurationPropertyValueException(
                    property + ".username",
                    server.getUsername(),
                    "needs a password, in the URL or " + property + ".password");
        }

        String bundle = node.getSsl().getBundle();
        Boolean enabled = node.getSsl().getEnabled();
        if (bundle != null && bundle.isBlank()) {
            throw new InvalidConfigurationPropertyValueException(
                    property + ".ssl.bundle", bundle, "must name an SSL bundle (spring.ssl.bundle.*) or be unset");
        }
        if (Boolean.FALSE.equals(enabled) && uri.isSsl()) {
            throw new InvalidConfigurationPropertyValueException(
                    property + ".ssl.enabled",
                    false,
                    "must not be false for a rediss:// URL; use redis:// without TLS");
        }
        if (Boolean.FALSE.equals(enabled) && bundle != null) {
            throw new InvalidConfigurationPropertyValueException(
                    property + ".ssl.bundle",
                    bundle,
                    "is set while " + property + ".ssl.enabled is false; remove one of them");
        }
        boolean ssl = enabled != null ? enabled : uri.isSsl() || bundle != null;
        return new RedlockNode(property, uri, server, ssl, bundle);
    }

    /** Whether both nodes lead to the same data: the same host, port and database. */
    boolean sameServer(RedlockNode other) {
        return server.getHostName().equalsIgnoreCase(other.server.getHostName())
                && server.getPort() == other.server.getPort()
                && server.getDatabase() == other.server.getDatabase();
    }

    @Override
    public String toString() {
        // Never the password: nodes show up in messages.
        return uri.toString();
    }

    private static SecretPropertyException malformedUrl(String property, String url, String why) {
        return new SecretPropertyException(property, masked(url), "must be " + FORM + ", but " + why);
    }

    /**
     * Why Lettuce could not read the URL: its own words only when the URL has no user information, since they quote
     * the URL, or a piece of it, as it is.
     */
    private static String unreadable(String url, IllegalArgumentException malformed, String property) {
        if (url.indexOf('@') < 0) {
            return malformed.getMessage();
        }
        return "it is not a valid URL; a password with characters that URLs reserve, such as '/', '{', '@' or a space,"
                + " must be percent-encoded in it, or set in " + property + ".password instead";
    }

    /**
     * The URL as it may appear in a message: everything from its scheme to its last {@code @} masked, whatever the
     * password holds ({@code /}, {@code @}, a space), since a URL that cannot be read cannot be trusted to say where
     * its password ends.
     */
    static String masked(String url) {
        int at = url.lastIndexOf('@');
        if (at < 0) {
            return url;
        }
        int scheme = url.indexOf("://");
        int start = scheme >= 0 && scheme < at ? scheme + 3 : 0;
        return url.substring(0, start) + "******" + url.substring(at);
    }
}
