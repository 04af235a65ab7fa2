package io.distlock.autoconfigure.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Where and how to reach one Redlock node: its {@code url} parsed the way Spring Boot reads {@code spring.data.redis.url}
 * ({@code redis://[[user]:password@]host[:port][/database]}, or {@code rediss://} for TLS), with the node's own
 * {@code username} and {@code password} in place of the URL's.
 *
 * @param property the node's property prefix, such as {@code distlock.redlock.nodes[0]}, for messages
 */
record RedlockNodeAddress(
        String property,
        String host,
        int port,
        int database,
        @Nullable String username,
        @Nullable String password,
        boolean ssl,
        @Nullable String sslBundle) {

    private static final int DEFAULT_PORT = 6379;

    /**
     * Parses and checks a node's settings.
     *
     * @throws InvalidConfigurationPropertyValueException naming the node's property that is invalid
     */
    static RedlockNodeAddress of(String property, RedlockProperties.Node node) {
        String urlProperty = property + ".url";
        String url = node.getUrl();
        if (url == null || url.isBlank()) {
            throw new InvalidConfigurationPropertyValueException(
                    urlProperty, url, "is required: every Redlock node needs a redis:// or rediss:// URL");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException malformed) {
            throw malformedUrl(urlProperty, url, malformed.getMessage());
        }
        String scheme = uri.getScheme();
        if (!"redis".equalsIgnoreCase(scheme) && !"rediss".equalsIgnoreCase(scheme)) {
            throw malformedUrl(urlProperty, url, "the scheme must be redis or rediss");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            // java.net.URI leaves the host unset when the authority is not a server address, such as a port of letters.
            throw malformedUrl(urlProperty, url, "it names no host, or its port is not a number");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw malformedUrl(
                    urlProperty,
                    url,
                    "query parameters and fragments are not read; set distlock.redlock.timeout and the node's"
                            + " properties instead");
        }
        int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
        int database = database(urlProperty, url, uri.getPath());

        String username = null;
        String password = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            if (colon >= 0) {
                username = emptyToNull(decode(userInfo.substring(0, colon)));
                password = decode(userInfo.substring(colon + 1));
            } else {
                // Like Lettuce's RedisURI: a single part is the password of the default user.
                password = decode(userInfo);
            }
        }
        if (node.getUsername() != null) {
            username = node.getUsername();
        }
        if (node.getPassword() != null) {
            password = node.getPassword();
        }
        if (username != null && password == null) {
            throw new InvalidConfigurationPropertyValueException(
                    property + ".username", username, "needs a password, in the URL or " + property + ".password");
        }

        boolean secureScheme = "rediss".equalsIgnoreCase(scheme);
        String bundle = node.getSsl().getBundle();
        Boolean enabled = node.getSsl().getEnabled();
        if (bundle != null && bundle.isBlank()) {
            throw new InvalidConfigurationPropertyValueException(
                    property + ".ssl.bundle", bundle, "must name an SSL bundle (spring.ssl.bundle.*) or be unset");
        }
        if (Boolean.FALSE.equals(enabled) && secureScheme) {
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
        boolean ssl = enabled != null ? enabled : secureScheme || bundle != null;
        return new RedlockNodeAddress(property, uri.getHost(), port, database, username, password, ssl, bundle);
    }

    /** Whether both addresses lead to the same data: the same host, port and database. */
    boolean sameServer(RedlockNodeAddress other) {
        return host.equalsIgnoreCase(other.host) && port == other.port && database == other.database;
    }

    @Override
    public String toString() {
        // Never the password: addresses show up in messages.
        return (ssl ? "rediss://" : "redis://") + host + ":" + port + "/" + database;
    }

    private static int database(String urlProperty, String url, @Nullable String path) {
        if (path == null || path.isEmpty() || path.equals("/")) {
            return 0;
        }
        try {
            int database = Integer.parseInt(path.substring(1));
            if (database >= 0) {
                return database;
            }
        } catch (NumberFormatException notANumber) {
            // Reported below, with the other malformed paths.
        }
        throw malformedUrl(urlProperty, url, "its path must be a database number, such as /0");
    }

    private static InvalidConfigurationPropertyValueException malformedUrl(String property, String url, String why) {
        return new InvalidConfigurationPropertyValueException(
                property,
                withoutPassword(url),
                "must be redis://[[user]:password@]host[:port][/database] or rediss://..., but " + why);
    }

    /** The URL as it may appear in a message, with the user and password masked. */
    private static String withoutPassword(String url) {
        return url.replaceFirst("://[^@/]*@", "://******@");
    }

    private static String decode(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static @Nullable String emptyToNull(String value) {
        return value.isEmpty() ? null : value;
    }
}
