package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockBackendException;
import io.distlock.store.StoreLease;
import io.distlock.tck.SecretsStayOutOfOutput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store with authorization against a real ZooKeeper: every node it creates is its identity's alone, so that a client
 * with other credentials, or none, can neither delete a holder's node, nor change its lease, nor read its owner
 * token, nor lock under the same base path; instances with the same credentials lock together as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZooKeeperAuthorizationTest {

    private static final String SECRET = "zk-s3cret-of-orders";
    private static final byte[] ORDERS = ("orders:" + SECRET).getBytes(StandardCharsets.UTF_8);
    private static final byte[] INTRUDER = "intruder:another-secret".getBytes(StandardCharsets.UTF_8);
    private static final Duration LEASE = Duration.ofSeconds(30);

    @RegisterExtension
    static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput(SECRET);

    private static TestZooKeeper zookeeper;

    private final String basePath = "/authorized-" + UUID.randomUUID();
    private final String key = "order-" + UUID.randomUUID();

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @Test
    void aClientWithOtherCredentialsOrNoneCanNeitherDeleteNorChangeAHoldersNode() throws Exception {
        try (ZooKeeperLeaseStore orders = store(ORDERS)) {
            // The orders' store makes the base path, as the application that locks there would.
            StoreLease held = Acquire.tryTake(orders, key, LEASE);
            assertThat(held).isNotNull();
            assertIntrudersAreKeptOut(held);
        }
    }

    private void assertIntrudersAreKeptOut(StoreLease held) throws Exception {
        try (ZooKeeperLeaseStore intruder = store(INTRUDER);
                CuratorFramework ordersAdmin = client(ORDERS);
                CuratorFramework otherClient = client(INTRUDER);
                CuratorFramework anonymous = client(null)) {
            String keyNode = basePath + "/" + KeyNodes.nodeName(key);
            String holderNode =
                    keyNode + "/" + ordersAdmin.getChildren().forPath(keyNode).get(0);

            for (CuratorFramework other : List.of(otherClient, anonymous)) {
                assertThatThrownBy(() -> other.delete().forPath(holderNode))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> other.setData().forPath(holderNode, "{}".getBytes(StandardCharsets.UTF_8)))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> other.getData().forPath(holderNode))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> other.delete().forPath(basePath + "/.clock"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
            assertThatThrownBy(() -> Acquire.tryTake(intruder, key, LEASE))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("NOAUTH");

            assertThat(held.extend(LEASE)).isTrue();
            assertThat(held.release()).isTrue();
        }
    }

    @Test
    void instancesWithTheSameCredentialsLockTogether() throws Exception {
        try (ZooKeeperLeaseStore first = store(ORDERS);
                ZooKeeperLeaseStore second = store(ORDERS)) {
            StoreLease held = Acquire.tryTake(first, key, LEASE);
            assertThat(held).isNotNull();
            assertThat(Acquire.tryTake(second, key, LEASE)).isNull();
            assertThat(held.release()).isTrue();
            StoreLease next = Acquire.tryTake(second, key, LEASE);
            assertThat(next).isNotNull();
            assertThat(next.release()).isTrue();
        }
    }

    @Test
    void badCredentialsAreRefusedWithoutQuotingThem() {
        ZooKeeperLeaseStore.Builder builder = ZooKeeperLeaseStore.builder(zookeeper.connectString());
        assertThatThrownBy(() -> builder.authorization("digest", SECRET.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("user:password")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> builder.authorization("digest", new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> builder.authorization(" ", ORDERS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheme");
    }

    @Test
    void authorizationAndTheClientConfigurationBelongToTheCallersOwnClient() throws Exception {
        ZooKeeperLeaseStore.Builder builder = ZooKeeperLeaseStore.builder(zookeeper.newClient());
        assertThatThrownBy(() -> builder.authorization("digest", ORDERS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ACLProvider");
        assertThatThrownBy(() -> builder.clientConfig(new ZKClientConfig())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void tlsWithoutTheNettySocketIsRefusedNamingIt() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        assertThatThrownBy(() ->
                        ZooKeeperLeaseStore.builder(zookeeper.connectString()).clientConfig(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty");
    }

    private ZooKeeperLeaseStore store(byte[] credentials) {
        return ZooKeeperLeaseStore.builder(zookeeper.connectString())
                .basePath(basePath)
                .authorization("digest", credentials)
                .build();
    }

    private static CuratorFramework client(byte[] credentials) throws InterruptedException {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(zookeeper.connectString())
                .retryPolicy(new RetryOneTime(100));
        if (credentials != null) {
            builder.authorization("digest", credentials);
        }
        CuratorFramework client = builder.build();
        client.start();
        assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        return client;
    }
}
