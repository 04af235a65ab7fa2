package io.distlock.autoconfigure.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.tck.SecretsStayOutOfOutput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * {@code distlock.zookeeper.authorization} on a real ZooKeeper: every node distlock creates is the application's
 * alone, so that another client, with other credentials or none, can neither delete a holder's node nor change its
 * lease; and a start-up warning for a base path that everyone may change. The credentials never reach the output.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZooKeeperAccessTest {

    private static final String SECRET = "orders-zk-s3cret";
    private static final String CREDENTIALS = "orders:" + SECRET;

    @RegisterExtension
    static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput(SECRET);

    private static TestingServer zooKeeper;

    private final String basePath = "/access-" + UUID.randomUUID();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
            .withPropertyValues(
                    "distlock.backend=zookeeper",
                    "distlock.shutdown.grace-period=0s",
                    "distlock.zookeeper.connect-string=" + zooKeeper.getConnectString(),
                    "distlock.zookeeper.base-path=" + basePath);

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    @Test
    void anotherClientCanNeitherDeleteNorChangeTheNodeOfAHolder() {
        runner.withPropertyValues("distlock.zookeeper.authorization.credentials=" + CREDENTIALS)
                .run(context -> {
                    try (LockHandle held = context.getBean(Lock.class)
                                    .tryAcquire("order-7")
                                    .orElseThrow();
                            CuratorFramework owner = client(CREDENTIALS);
                            CuratorFramework intruder = client("intruder:other-secret");
                            CuratorFramework anonymous = client(null)) {
                        String keyNode = basePath + "/order-7";
                        String holderNode = keyNode + "/"
                                + owner.getChildren().forPath(keyNode).get(0);

                        for (CuratorFramework other : List.of(intruder, anonymous)) {
                            assertThatThrownBy(() -> other.delete().forPath(holderNode))
                                    .isInstanceOf(KeeperException.NoAuthException.class);
                            assertThatThrownBy(() -> other.setData().forPath(holderNode, "{}".getBytes()))
                                    .isInstanceOf(KeeperException.NoAuthException.class);
                            assertThatThrownBy(() -> other.getData().forPath(holderNode))
                                    .isInstanceOf(KeeperException.NoAuthException.class);
                            assertThatThrownBy(() -> other.create().forPath(keyNode + "/intruder"))
                                    .isInstanceOf(KeeperException.NoAuthException.class);
                        }
                        assertThat(owner.getACL().forPath(holderNode))
                                .allSatisfy(acl ->
                                        assertThat(acl.getId().getScheme()).isEqualTo("digest"));
                        assertThat(held.isHeld()).isTrue();
                        held.release();
                    }
                });
    }

    @Test
    void withoutAuthorizationStartUpWarnsThatEveryoneMayChangeTheLocks(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("world:anyone"));
            assertThat(output.getOut())
                    .contains("WARN")
                    .contains(basePath)
                    .contains("world:anyone")
                    .contains("distlock.zookeeper.authorization");
        });
    }

    @Test
    void aBasePathOpenToEveryoneIsWarnedAboutEvenWithAuthorization(CapturedOutput output) throws Exception {
        try (CuratorFramework admin = client(null)) {
            admin.create()
                    .withACL(List.of(new ACL(ZooDefs.Perms.ALL, new Id("world", "anyone"))))
                    .forPath(basePath);
        }
        runner.withPropertyValues("distlock.zookeeper.authorization.credentials=" + CREDENTIALS)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> output.getOut().contains("world:anyone"));
                    assertThat(output.getOut()).contains("WARN").contains(basePath);
                });
    }

    @Test
    void withAuthorizationOnANewBasePathNothingIsWarnedAbout(CapturedOutput output) {
        runner.withPropertyValues("distlock.zookeeper.authorization.credentials=" + CREDENTIALS)
                .run(context -> {
                    try (LockHandle held =
                            context.getBean(Lock.class).tryAcquire("order-8").orElseThrow()) {
                        assertThat(held.isHeld()).isTrue();
                    }
                    await().atMost(Duration.ofSeconds(10))
                            .until(() ->
                                    output.getOut().contains("Checked the ACL of the ZooKeeper base path " + basePath));
                    assertThat(output.getOut()).doesNotContain("The ZooKeeper base path " + basePath + " is open");
                });
    }

    private static CuratorFramework client(String credentials) throws InterruptedException {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(zooKeeper.getConnectString())
                .retryPolicy(new RetryOneTime(100));
        if (credentials != null) {
            builder.authorization("digest", credentials.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework client = builder.build();
        client.start();
        assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        return client;
    }
}
