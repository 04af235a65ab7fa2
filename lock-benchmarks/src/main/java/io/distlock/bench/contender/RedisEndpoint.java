package io.distlock.bench.contender;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Where the Redis under test listens. It travels to worker processes as a {@code redis://[:password@]host:port} URI.
 *
 * @param host the host name or address
 * @param port the port
 * @param password the default user's password, or null
 */
public record RedisEndpoint(String host, int port, @Nullable String password) {

    /**
     * Reads a {@code redis://[:password@]host[:port]} URI.
     *
     * @param uri the URI
     * @return the endpoint
     * @throws IllegalArgumentException if the URI is not of that form
     */
    public static RedisEndpoint parse(String uri) {
        URI parsed = URI.create(uri.trim());
        if (!"redis".equals(parsed.getScheme()) || parsed.getHost() == null) {
            throw new IllegalArgumentException("expected redis://[:password@]host[:port], but got " + uri);
        }
        String password = null;
        String userInfo = parsed.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon > 0) {
                throw new IllegalArgumentException("only the default user is supported: redis://:password@host:port");
            }
            password = URLDecoder.decode(userInfo.substring(colon + 1), StandardCharsets.UTF_8);
        }
        return new RedisEndpoint(parsed.getHost(), parsed.getPort() < 0 ? 6379 : parsed.getPort(), password);
    }

    /**
     * The endpoint as a URI that {@link #parse(String)} and Redisson understand.
     *
     * @return {@code redis://[:password@]host:port}
     */
    public String uri() {
        String credentials = password == null ? "" : ":" + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@";
        return "redis://" + credentials + host + ":" + port;
    }

    /**
     * The endpoint without its password, for reports.
     *
     * @return {@code redis://host:port}
     */
    public String address() {
        return "redis://" + host + ":" + port;
    }
}
