package io.distlock.autoconfigure.zookeeper;

import io.distlock.Lock;
import io.distlock.autoconfigure.ConditionalOnLockBackend;
import io.distlock.autoconfigure.DistributedLockProperties;
import io.distlock.autoconfigure.StoreLocks;
import io.distlock.monitor.LockObserver;
import io.distlock.store.StoreLock;
import io.distlock.zookeeper.ZooKeeperLeaseStore;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link Lock} bean on Apache ZooKeeper: a {@link StoreLock} over a {@link ZooKeeperLeaseStore}, on a Curator
 * client of distlock's own when the application has {@link ZooKeeperConnectionDetails} (a bean of its own, or {@code
 * distlock.zookeeper.connect-string}), with the authorization and TLS of {@code distlock.zookeeper.authorization.*}
 * and {@code ssl.*}, else on the application's {@link CuratorFramework} bean,
 * whose own authorization, ACL provider and TLS apply. The {@code distlock.zookeeper.*} properties are checked whenever
 * lock-zookeeper is present.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(ZooKeeperLeaseStore.class)
@EnableConfigurationProperties(ZooKeeperLockProperties.class)
class ZooKeeperLockConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnLockBackend("zookeeper")
    static class StoreLockConfiguration {

        @Bean
        @ConditionalOnMissingBean(ZooKeeperConnectionDetails.class)
        @ConditionalOnProperty(prefix = "distlock.zookeeper", name = "connect-string")
        PropertiesZooKeeperConnectionDetails distlockZooKeeperConnectionDetails(ZooKeeperLockProperties zookeeper) {
            return new PropertiesZooKeeperConnectionDetails(Objects.requireNonNull(zookeeper.getConnectString()));
        }

        @Bean
        @ConditionalOnMissingBean(Lock.class)
        StoreLock distlockLock(
                ObjectProvider<ZooKeeperConnectionDetails> connections,
                ObjectProvider<CuratorFramework> clients,
                ZooKeeperLockProperties zookeeper,
                DistributedLockProperties properties,
                ObjectProvider<LockObserver> observers) {
            ZooKeeperConnectionDetails connection = connections.getIfAvailable();
            ZooKeeperLeaseStore.Builder builder = connection != null
                    ? ownClient(connection.connectString(), zookeeper)
                    : ZooKeeperLeaseStore.builder(clients.getObject());
            ZooKeeperLeaseStore store = builder.basePath(zookeeper.getBasePath())
                    .callTimeout(zookeeper.getCallTimeout())
                    .build();
            return StoreLocks.build(store, properties, observers);
        }

        private static ZooKeeperLeaseStore.Builder ownClient(String connectString, ZooKeeperLockProperties zookeeper) {
            ZooKeeperLeaseStore.Builder builder =
                    ZooKeeperLeaseStore.builder(connectString).sessionTimeout(zookeeper.getSessionTimeout());
            ZooKeeperLockProperties.Authorization authorization = zookeeper.getAuthorization();
            if (authorization.isConfigured()) {
                builder.authorization(
                        authorization.getScheme(),
                        authorization.getCredentials().getBytes(StandardCharsets.UTF_8));
            }
            if (zookeeper.getSsl().isEnabled()) {
                builder.clientConfig(ZooKeeperTls.clientConfig(zookeeper.getSsl()));
            }
            return builder;
        }
    }
}
