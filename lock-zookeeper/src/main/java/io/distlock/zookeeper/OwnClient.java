package io.distlock.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.jspecify.annotations.Nullable;

/**
 * The settings of the Curator client a store makes for itself, and the client they make: its session, its
 * authorization with creator-only ACLs, and ZooKeeper's own client configuration, such as TLS.
 */
final class OwnClient {

    /** The Netty socket, which ZooKeeper's client needs for TLS; its default socket has none. */
    static final String NETTY_SOCKET = "org.apache.zookeeper.ClientCnxnSocketNetty";

    /**
     * Every permission for the identities the creating session authenticated as, none for anyone else: ZooKeeper's
     * {@code CREATOR_ALL_ACL}, spelt out, since the {@code Ids} constants carry annotations the compiler cannot read.
     * Not a {@code List.of}: ZooKeeper asks the list whether it contains null, which that list answers by throwing.
     */
    private static final List<ACL> CREATOR_ALL =
            Collections.singletonList(new ACL(ZooDefs.Perms.ALL, new Id("auth", "")));

    private Duration sessionTimeout = Duration.ofSeconds(10);
    private @Nullable String scheme;
    private byte @Nullable [] credentials;
    private @Nullable ZKClientConfig config;

    /**
     * Sets the session timeout of the client.
     *
     * @throws IllegalArgumentException if shorter than 1 s
     */
    void sessionTimeout(Duration sessionTimeout) {
        if (sessionTimeout == null || sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("sessionTimeout must be at least 1 s, but was " + sessionTimeout);
        }
        this.sessionTimeout = sessionTimeout;
    }

    /**
     * Sets how the client authenticates, keeping a copy of the credentials.
     *
     * @throws IllegalArgumentException as {@link #checkCredentials} says, or for a blank scheme or null credentials
     */
    void authorization(String scheme, byte[] credentials) {
        if (scheme == null || scheme.isBlank()) {
            throw new IllegalArgumentException("scheme must name an authentication scheme, such as digest");
        }
        if (credentials == null) {
            throw new IllegalArgumentException("credentials must not be null");
        }
        checkCredentials(scheme, credentials);
        this.scheme = scheme;
        this.credentials = credentials.clone();
    }

    /**
     * Sets ZooKeeper's own configuration of the client.
     *
     * @throws IllegalArgumentException as {@link #checkConfig} says, or for a null configuration
     */
    void config(ZKClientConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("config must not be null");
        }
        checkConfig(config);
        this.config = config;
    }

    /** Whether the nodes this client creates are its identity's alone. */
    boolean creatorOnly() {
        return scheme != null;
    }

    /** Builds and starts the client; it connects in the background. */
    CuratorFramework start(String connectString) {
        int sessionMillis = (int) sessionTimeout.toMillis();
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(sessionMillis)
                .connectionTimeoutMs(Math.min(sessionMillis, 15_000))
                .retryPolicy(new ExponentialBackoffRetry(100, 3));
        if (scheme != null && credentials != null) {
            // Curator authenticates every session it opens, also after an expiry, before any request of the store.
            builder.authorization(scheme, credentials).aclProvider(new ACLProvider() {
                @Override
                public List<ACL> getDefaultAcl() {
                    return CREATOR_ALL;
                }

                @Override
                public List<ACL> getAclForPath(String path) {
                    return CREATOR_ALL;
                }
            });
        }
        if (config != null) {
            builder.zkClientConfig(config);
        }
        CuratorFramework client = builder.build();
        client.start();
        return client;
    }

    /**
     * Checks credentials for a scheme whose form distlock knows: {@code digest} takes {@code user:password}.
     *
     * @throws IllegalArgumentException naming the scheme and the form, never the credentials
     */
    private static void checkCredentials(String scheme, byte[] credentials) {
        if (credentials.length == 0) {
            throw new IllegalArgumentException("credentials must not be empty");
        }
        if (scheme.equals("digest")) {
            String text = new String(credentials, StandardCharsets.UTF_8);
            int colon = text.indexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new IllegalArgumentException(
                        "credentials of the digest scheme must be user:password, with neither part empty");
            }
        }
    }

    /**
     * Checks ZooKeeper's client configuration for TLS without the socket that can do it.
     *
     * @throws IllegalArgumentException naming the property to set
     */
    private static void checkConfig(ZKClientConfig config) {
        if (config.getBoolean(ZKClientConfig.SECURE_CLIENT)) {
            String socket = config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET);
            if (!NETTY_SOCKET.equals(socket)) {
                throw new IllegalArgumentException(ZKClientConfig.SECURE_CLIENT + "=true needs "
                        + ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET + "=" + NETTY_SOCKET + ", but it is " + socket);
            }
        }
    }
}
