package io.distlock.autoconfigure.redis;

import io.lettuce.core.ClientOptions;
import java.util.function.Consumer;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * The application's customizers of Lettuce clients, which Spring Boot applies to the application's own Redis
 * connection, for the connections of the Redlock nodes: the client options customizers, then the client configuration
 * customizers, each in their order.
 *
 * <p>Spring Boot 4 declares them in {@code org.springframework.boot.data.redis.autoconfigure}, and this bean adapts
 * them there. Spring Boot 3.5 declares them in {@code org.springframework.boot.autoconfigure.data.redis}, which
 * distlock, built against Spring Boot 4, cannot name without reflection: on Spring Boot 3.5 the nodes get none (but
 * they do get the application's {@code ClientResources}, which is Lettuce's own type).
 *
 * @param options applies the client options customizers to a node's options
 * @param configuration applies the client configuration customizers to a node's client configuration
 */
record RedlockClientCustomizers(
        Consumer<ClientOptions.Builder> options, Consumer<LettuceClientConfigurationBuilder> configuration) {

    /** No customizers, where the application has none or they cannot be named. */
    static RedlockClientCustomizers none() {
        return new RedlockClientCustomizers(options -> {}, configuration -> {});
    }
}
