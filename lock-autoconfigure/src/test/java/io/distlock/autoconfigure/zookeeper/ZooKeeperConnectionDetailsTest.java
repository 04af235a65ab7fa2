package io.distlock.autoconfigure.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link ZooKeeperConnectionDetails} bean, as a test's {@code @ServiceConnection} or Docker Compose would supply
 * one, connects distlock's own client: it makes the ZooKeeper backend present and takes precedence over {@code
 * distlock.zookeeper.connect-string}, which otherwise defines the connection.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZooKeeperConnectionDetailsTest {

    private static TestingServer zooKeeper;

    private final String basePath = "/connection-details-" + UUID.randomUUID();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
            .withPropertyValues("distlock.shutdown.grace-period=0s", "distlock.zookeeper.base-path=" + basePath);

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    @Test
    void aConnectionDetailsBeanAloneMakesZooKeeperTheBackendAndConnectsTheLock() {
        runner.withUserConfiguration(ServerConnection.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(PropertiesZooKeeperConnectionDetails.class);
            assertThat(context.getBean(Lock.class).toString()).contains("zookeeper");
            locksOnTheServer(context.getBean(Lock.class));
        });
    }

    @Test
    void aConnectionDetailsBeanTakesPrecedenceOverTheConnectString() {
        runner.withUserConfiguration(ServerConnection.class)
                .withPropertyValues("distlock.backend=zookeeper", "distlock.zookeeper.connect-string=127.0.0.1:1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    locksOnTheServer(context.getBean(Lock.class));
                });
    }

    @Test
    void theConnectStringDefinesTheConnectionDetailsWhenTheApplicationHasNone() {
        runner.withPropertyValues("distlock.zookeeper.connect-string=" + zooKeeper.getConnectString())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ZooKeeperConnectionDetails.class).connectString())
                            .isEqualTo(zooKeeper.getConnectString());
                    locksOnTheServer(context.getBean(Lock.class));
                });
    }

    /** The lock's holder node is on the test's server, under the configured base path. */
    private void locksOnTheServer(Lock lock) throws Exception {
        try (LockHandle held = lock.tryAcquire("order-7").orElseThrow();
                CuratorFramework client =
                        CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100))) {
            client.start();
            assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.checkExists().forPath(basePath))
                    .as("distlock's base path on the server the connection details name, while %s is held", held.key())
                    .isNotNull();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ServerConnection {

        @Bean
        ZooKeeperConnectionDetails zooKeeperConnectionDetails() {
            return zooKeeper::getConnectString;
        }
    }
}
