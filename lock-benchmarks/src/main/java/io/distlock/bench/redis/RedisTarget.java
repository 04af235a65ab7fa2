package io.distlock.bench.redis;

import io.distlock.bench.contender.RedisEndpoint;
import io.distlock.test.TestRedis;
import org.jspecify.annotations.Nullable;

/** The Redis every contender runs against: a throwaway server of the run's own, or one given by URI. */
public final class RedisTarget implements AutoCloseable {

    private final RedisEndpoint endpoint;
    private final String provider;
    private final @Nullable TestRedis server;

    private RedisTarget(RedisEndpoint endpoint, String provider, @Nullable TestRedis server) {
        this.endpoint = endpoint;
        this.provider = provider;
        this.server = server;
    }

    /**
     * Uses the Redis at {@code uri}, or starts a throwaway one (never on port 6379) when it is null.
     *
     * @param uri a {@code redis://[:password@]host:port} URI, or null
     * @return the target; close it to stop a server it started
     */
    public static RedisTarget open(@Nullable String uri) {
        if (uri != null) {
            RedisEndpoint endpoint = RedisEndpoint.parse(uri);
            return new RedisTarget(endpoint, "external, " + endpoint.address(), null);
        }
        TestRedis server = TestRedis.start();
        RedisEndpoint endpoint = new RedisEndpoint(server.host(), server.port(), server.password());
        return new RedisTarget(
                endpoint,
                server.description() + " (throwaway, via lock-test-support, " + server.provider() + ")",
                server);
    }

    /**
     * Where the server listens.
     *
     * @return the endpoint
     */
    public RedisEndpoint endpoint() {
        return endpoint;
    }

    /**
     * Where the server came from, for the results.
     *
     * @return a description without password
     */
    public String provider() {
        return provider;
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
