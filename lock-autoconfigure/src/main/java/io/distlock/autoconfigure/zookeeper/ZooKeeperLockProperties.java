package io.distlock.autoconfigure.zookeeper;

import io.distlock.autoconfigure.internal.SecretPropertyException;
import io.distlock.zookeeper.ZooKeeperLeaseStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The lock on Apache ZooKeeper, for {@code distlock.backend=zookeeper}; needs lock-zookeeper. Invalid values fail
 * application start-up, naming the property.
 */
@ConfigurationProperties("distlock.zookeeper")
public class ZooKeeperLockProperties implements InitializingBean {

    /**
     * ZooKeeper ensemble for a client of distlock's own, as host:port[,host:port...]; a ZooKeeperConnectionDetails bean
     * takes precedence, and unset without one means the application's CuratorFramework bean.
     */
    private @Nullable String connectString;

    /** Node under which the lock nodes are made; an absolute path other than / and outside /zookeeper. */
    private String basePath = "/distlock";

    /**
     * Session timeout of distlock's own client: a holder that dies frees its keys after about this long, and a holder
     * paused for longer loses them.
     */
    private Duration sessionTimeout = Duration.ofSeconds(10);

    /** How long one request may wait for ZooKeeper's answer, retries included, before it fails. */
    private Duration callTimeout = Duration.ofSeconds(15);

    private final Authorization authorization = new Authorization();

    private final Ssl ssl = new Ssl();

    public @Nullable String getConnectString() {
        return connectString;
    }

    public void setConnectString(@Nullable String connectString) {
        this.connectString = connectString;
    }

    public String getBasePath() {
        return basePath;
    }

    public void setBasePath(String basePath) {
        this.basePath = basePath;
    }

    public Duration getSessionTimeout() {
        return sessionTimeout;
    }

    public void setSessionTimeout(Duration sessionTimeout) {
        this.sessionTimeout = sessionTimeout;
    }

    public Duration getCallTimeout() {
        return callTimeout;
    }

    public void setCallTimeout(Duration callTimeout) {
        this.callTimeout = callTimeout;
    }

    public Authorization getAuthorization() {
        return authorization;
    }

    public Ssl getSsl() {
        return ssl;
    }

    /**
     * Rejects values that cannot work, naming the property, so the application fails at start-up.
     *
     * @throws InvalidConfigurationPropertyValueException for the first invalid value
     */
    @Override
    public void afterPropertiesSet() {
        if (connectString != null && connectString.isBlank()) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.zookeeper.connect-string",
                    connectString,
                    "must not be blank; leave it unset to use the application's CuratorFramework bean");
        }
        if (basePath == null
                || !basePath.startsWith("/")
                || basePath.equals("/")
                || basePath.endsWith("/")
                || basePath.equals("/zookeeper")
                || basePath.startsWith("/zookeeper/")) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.zookeeper.base-path",
                    basePath,
                    "must be an absolute path other than /, without a trailing /, and outside /zookeeper");
        }
        if (sessionTimeout == null || sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.zookeeper.session-timeout", sessionTimeout, "must be at least 1s");
        }
        if (callTimeout == null || callTimeout.compareTo(Duration.ofMillis(100)) < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.zookeeper.call-timeout", callTimeout, "must be at least 100ms");
        }
        authorization.validate(connectString);
        ssl.validate(connectString != null);
    }

    /**
     * Authentication of distlock's own client, which then gives every node it creates to its identity alone
     * (ZooKeeper's creator-only ACL): another client can neither read, change nor delete the locks' nodes.
     */
    public static class Authorization {

        private static final String CREDENTIALS = "distlock.zookeeper.authorization.credentials";

        /** Authentication scheme of distlock's own client, such as digest. */
        private String scheme = "digest";

        /**
         * Credentials of the scheme, such as user:password for digest, the same on every instance; unset means no
         * authorization, and nodes that any client may change. Never logged.
         */
        private @Nullable String credentials;

        public String getScheme() {
            return scheme;
        }

        public void setScheme(String scheme) {
            this.scheme = scheme;
        }

        public @Nullable String getCredentials() {
            return credentials;
        }

        public void setCredentials(@Nullable String credentials) {
            this.credentials = credentials;
        }

        /** Whether distlock's client authenticates, and so creates nodes for its identity alone. */
        public boolean isConfigured() {
            return credentials != null;
        }

        void validate(@Nullable String connectString) {
            if (scheme == null || scheme.isBlank()) {
                throw new InvalidConfigurationPropertyValueException(
                        "distlock.zookeeper.authorization.scheme", scheme, "must name a scheme, such as digest");
            }
            if (credentials == null) {
                return;
            }
            if (connectString == null) {
                throw new SecretPropertyException(
                        CREDENTIALS,
                        null,
                        "applies to distlock's own client, which distlock.zookeeper.connect-string asks for; give"
                                + " the application's CuratorFramework bean its authorization and an ACLProvider"
                                + " instead");
            }
            try {
                ZooKeeperLeaseStore.builder(connectString)
                        .authorization(scheme, credentials.getBytes(StandardCharsets.UTF_8));
            } catch (IllegalArgumentException invalid) {
                // The store's own rules, checked when the properties are bound; its messages never quote the
                // credentials.
                throw new SecretPropertyException(CREDENTIALS, null, invalid.getMessage());
            }
        }
    }

    /**
     * TLS from distlock's own client to ZooKeeper's secure client port, set for that client alone rather than through
     * the JVM's system properties. ZooKeeper's client reads its stores from files, which it reloads when they change.
     */
    public static class Ssl {

        /** Whether distlock's own client connects over TLS, to the ensemble's secureClientPort. */
        private boolean enabled;

        /** Trust store file with the certificate authorities of the servers; unset means the JVM's trust store. */
        private @Nullable String trustStoreLocation;

        /** Password of the trust store, if it has one. Never logged. */
        private @Nullable String trustStorePassword;

        /** Type of the trust store: PEM, JKS, PKCS12 or BCFKS; unset means by its file name's extension. */
        private @Nullable String trustStoreType;

        /** Key store file with this client's certificate and private key, for an ensemble that asks for one. */
        private @Nullable String keyStoreLocation;

        /** Password of the key store, if it has one. Never logged. */
        private @Nullable String keyStorePassword;

        /** Type of the key store: PEM, JKS, PKCS12 or BCFKS; unset means by its file name's extension. */
        private @Nullable String keyStoreType;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable String getTrustStoreLocation() {
            return trustStoreLocation;
        }

        public void setTrustStoreLocation(@Nullable String trustStoreLocation) {
            this.trustStoreLocation = trustStoreLocation;
        }

        public @Nullable String getTrustStorePassword() {
            return trustStorePassword;
        }

        public void setTrustStorePassword(@Nullable String trustStorePassword) {
            this.trustStorePassword = trustStorePassword;
        }

        public @Nullable String getTrustStoreType() {
            return trustStoreType;
        }

        public void setTrustStoreType(@Nullable String trustStoreType) {
            this.trustStoreType = trustStoreType;
        }

        public @Nullable String getKeyStoreLocation() {
            return keyStoreLocation;
        }

        public void setKeyStoreLocation(@Nullable String keyStoreLocation) {
            this.keyStoreLocation = keyStoreLocation;
        }

        public @Nullable String getKeyStorePassword() {
            return keyStorePassword;
        }

        public void setKeyStorePassword(@Nullable String keyStorePassword) {
            this.keyStorePassword = keyStorePassword;
        }

        public @Nullable String getKeyStoreType() {
            return keyStoreType;
        }

        public void setKeyStoreType(@Nullable String keyStoreType) {
            this.keyStoreType = keyStoreType;
        }

        void validate(boolean ownClient) {
            boolean stores = trustStoreLocation != null || keyStoreLocation != null;
            if (!enabled) {
                if (stores) {
                    throw new InvalidConfigurationPropertyValueException(
                            "distlock.zookeeper.ssl.enabled",
                            false,
                            "must be true when distlock.zookeeper.ssl.trust-store-location or key-store-location is"
                                    + " set, or the stores would go unused");
                }
                return;
            }
            if (!ownClient) {
                throw new InvalidConfigurationPropertyValueException(
                        "distlock.zookeeper.ssl.enabled",
                        true,
                        "applies to distlock's own client, which distlock.zookeeper.connect-string asks for; configure"
                                + " TLS on the application's CuratorFramework bean instead");
            }
            checkReadable("distlock.zookeeper.ssl.trust-store-location", trustStoreLocation);
            checkReadable("distlock.zookeeper.ssl.key-store-location", keyStoreLocation);
        }

        private static void checkReadable(String property, @Nullable String location) {
            if (location != null && !Files.isReadable(Path.of(location))) {
                throw new InvalidConfigurationPropertyValueException(
                        property,
                        location,
                        "must be a file that this process can read (ZooKeeper's client reads its stores from files,"
                                + " not from the class path)");
            }
        }
    }
}
