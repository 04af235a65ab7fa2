package io.distlock.autoconfigure.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The connection factories of the Redlock nodes, one per {@code distlock.redlock.nodes} entry, started when created and
 * destroyed with this bean. They are not beans themselves: a second {@code RedisConnectionFactory} bean would break
 * every injection of the application's own one by type, and would make Spring Boot's Redis auto-configuration back off.
 *
 * <p>Their clients are made like the application's own connection: on the application's {@link ClientResources} (its
 * event loops, tracing, metrics and reconnect delay) when it has them, with the application's Lettuce customizers
 * ({@link RedlockClientCustomizers}). What the Redlock relies on is applied last and wins over the customizers: the
 * command timeout ({@code distlock.redlock.timeout}), the connect timeout ({@code distlock.redlock.connect-timeout}),
 * timeouts switched on, commands rejected at once while a node is disconnected, and each node's TLS: on exactly when the
 * node's settings say, with full peer verification, trusting the node's SSL bundle or else the JVM's trust store.
 */
final class RedlockNodes implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RedlockNodes.class);

    private final List<LettuceConnectionFactory> factories;

    private RedlockNodes(List<LettuceConnectionFactory> factories) {
        this.factories = List.copyOf(factories);
    }

    /**
     * Creates and starts a connection factory per node. Nothing connects yet: Lettuce connects at the first command.
     *
     * @param sslBundles the application's SSL bundles, or null when it has none
     * @param clientResources the application's Lettuce resources, or null for resources of each node's own
     * @param customizers the application's customizers of Lettuce clients
     * @throws InvalidConfigurationPropertyValueException naming the node property that is invalid, such as an unknown
     *     SSL bundle
     */
    static RedlockNodes create(
            RedlockProperties redlock,
            @Nullable SslBundles sslBundles,
            @Nullable ClientResources clientResources,
            RedlockClientCustomizers customizers) {
        List<RedlockNode> nodes = redlock.readNodes();
        // Every bundle is resolved before any factory exists, so that a bad one leaves nothing to clean up.
        List<@Nullable SslBundle> bundles = new ArrayList<>(nodes.size());
        for (RedlockNode node : nodes) {
            bundles.add(node.sslBundle() == null ? null : bundle(node, sslBundles));
        }
        List<LettuceConnectionFactory> factories = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            LettuceConnectionFactory factory = new LettuceConnectionFactory(
                    nodes.get(i).server(), client(nodes.get(i), bundles.get(i), redlock, clientResources, customizers));
            factory.afterPropertiesSet();
            factory.start();
            factories.add(factory);
        }
        return new RedlockNodes(factories);
    }

    /**
     * The connection factories, in the order of the nodes.
     *
     * @return one started factory per node
     */
    List<LettuceConnectionFactory> factories() {
        return factories;
    }

    /** Destroys every factory, also when one of them fails to close, so that no node keeps a connection open. */
    @Override
    public void destroy() {
        for (LettuceConnectionFactory factory : factories) {
            try {
                factory.destroy();
            } catch (RuntimeException failed) {
                log.warn("Closing the connections of a Redlock node failed", failed);
            }
        }
    }

    private static SslBundle bundle(RedlockNode node, @Nullable SslBundles sslBundles) {
        String name = node.sslBundle();
        String property = node.property() + ".ssl.bundle";
        if (sslBundles == null) {
            throw new InvalidConfigurationPropertyValueException(
                    property, name, "names an SSL bundle, but the application has none (spring.ssl.bundle.*)");
        }
        try {
            return sslBundles.getBundle(name);
        } catch (NoSuchSslBundleException unknown) {
            throw new InvalidConfigurationPropertyValueException(
                    property,
                    name,
                    "must name one of the application's SSL bundles (spring.ssl.bundle.*): " + unknown.getMessage());
        }
    }

    /**
     * Like Spring Boot's Lettuce configuration of spring.data.redis: its options, then the options customizers, then
     * the client configuration customizers; then what the Redlock relies on.
     */
    private static LettuceClientConfiguration client(
            RedlockNode node,
            @Nullable SslBundle bundle,
            RedlockProperties redlock,
            @Nullable ClientResources clientResources,
            RedlockClientCustomizers customizers) {
        ClientOptions.Builder options = ClientOptions.builder()
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(redlock.getConnectTimeout())
                        .build())
                .timeoutOptions(TimeoutOptions.enabled());
        customizers.options().accept(options);
        LettuceClientConfiguration.LettuceClientConfigurationBuilder client =
                LettuceClientConfiguration.builder().clientOptions(options.build());
        if (clientResources != null) {
            client.clientResources(clientResources);
        }
        customizers.configuration().accept(client);
        return withRedlockSettings(client.build(), node, bundle, redlock);
    }

    /**
     * The customized configuration with what the Redlock relies on applied last: its timeouts, REJECT_COMMANDS, and the
     * node's own TLS, fully verified and trusting the node's bundle or the JVM's trust store, whatever a customizer did
     * for the application's own Redis. A new builder takes everything else over, since a builder cannot turn TLS, or
     * STARTTLS, off again once a customizer turned it on.
     */
    private static LettuceClientConfiguration withRedlockSettings(
            LettuceClientConfiguration customized,
            RedlockNode node,
            @Nullable SslBundle bundle,
            RedlockProperties redlock) {
        // A customizer may have replaced the options: the Redlock's own are applied on top of whichever they are.
        ClientOptions options = customized.getClientOptions().orElseGet(ClientOptions::create);
        LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
                .clientOptions(redlockOptions(options, bundle, redlock.getConnectTimeout()))
                .commandTimeout(redlock.getTimeout())
                .shutdownTimeout(customized.getShutdownTimeout())
                .shutdownQuietPeriod(customized.getShutdownQuietPeriod());
        customized.getClientResources().ifPresent(client::clientResources);
        customized.getClientName().ifPresent(client::clientName);
        customized.getRedisCredentialsProviderFactory().ifPresent(client::redisCredentialsProviderFactory);
        // No ReadFrom: a node is one master, which every command of the Redlock must reach.
        if (node.ssl()) {
            client.useSsl();
        }
        return client.build();
    }

    private static ClientOptions redlockOptions(
            ClientOptions customized, @Nullable SslBundle bundle, Duration connectTimeout) {
        ClientOptions.Builder options = customized
                .mutate()
                .socketOptions(customized
                        .getSocketOptions()
                        .mutate()
                        .connectTimeout(connectTimeout)
                        .build())
                .timeoutOptions(TimeoutOptions.enabled())
                // A node that is down must count as failed at once, not hold every vote up for the command timeout
                // while the client queues commands for its reconnect: the other nodes decide without it.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        return options.sslOptions(bundle != null ? sslOptions(bundle) : io.lettuce.core.SslOptions.create())
                .build();
    }

    private static io.lettuce.core.SslOptions sslOptions(SslBundle bundle) {
        io.lettuce.core.SslOptions.Builder ssl = io.lettuce.core.SslOptions.builder()
                .keyManager(bundle.getManagers().getKeyManagerFactory())
                .trustManager(bundle.getManagers().getTrustManagerFactory());
        SslOptions options = bundle.getOptions();
        if (options.getCiphers() != null) {
            ssl.cipherSuites(options.getCiphers());
        }
        if (options.getEnabledProtocols() != null) {
            ssl.protocols(options.getEnabledProtocols());
        }
        return ssl.build();
    }
}
