package io.distlock.bench.contender;

import java.time.Duration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Creates the Lettuce connection factories of every contender that runs on Spring Data Redis, all configured alike: the
 * defaults an application gets (one shared native connection), with a command timeout.
 */
public final class LettuceFactories {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

    private LettuceFactories() {}

    /**
     * Creates and starts a factory with connections of its own.
     *
     * @param endpoint the Redis to connect to
     * @return the started factory; {@link LettuceConnectionFactory#destroy()} it when done
     */
    public static LettuceConnectionFactory start(RedisEndpoint endpoint) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(endpoint.host(), endpoint.port());
        if (endpoint.password() != null) {
            server.setPassword(endpoint.password());
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                server,
                LettuceClientConfiguration.builder()
                        .commandTimeout(COMMAND_TIMEOUT)
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
