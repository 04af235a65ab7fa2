package io.distlock.autoconfigure.zookeeper;

import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

/**
 * ZooKeeper's own client configuration of {@code distlock.zookeeper.ssl.*}, for distlock's client alone. ZooKeeper
 * 3.9's client builds its TLS context itself, from files named in its configuration; it takes no ready SSL context but
 * by a class name it instantiates without arguments, so a Spring Boot SSL bundle could reach it only through state
 * shared by every client of the JVM.
 */
final class ZooKeeperTls {

    private ZooKeeperTls() {}

    static ZKClientConfig clientConfig(ZooKeeperLockProperties.Ssl ssl) {
        // Starts from the JVM's system properties, as every ZooKeeper client does; the settings below win.
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        // The default socket has no TLS.
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
        set(config, "zookeeper.ssl.trustStore.location", ssl.getTrustStoreLocation());
        set(config, "zookeeper.ssl.trustStore.password", ssl.getTrustStorePassword());
        set(config, "zookeeper.ssl.trustStore.type", ssl.getTrustStoreType());
        set(config, "zookeeper.ssl.keyStore.location", ssl.getKeyStoreLocation());
        set(config, "zookeeper.ssl.keyStore.password", ssl.getKeyStorePassword());
        set(config, "zookeeper.ssl.keyStore.type", ssl.getKeyStoreType());
        return config;
    }

    private static void set(ZKClientConfig config, String name, @Nullable String value) {
        if (value != null) {
            config.setProperty(name, value);
        }
    }
}
