package io.distlock.autoconfigure.zookeeper;

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
     * ZooKeeper ensemble for a client of distlock's own, as host:port[,host:port...]; unset means the application's
     * CuratorFramework bean.
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
    }
}
