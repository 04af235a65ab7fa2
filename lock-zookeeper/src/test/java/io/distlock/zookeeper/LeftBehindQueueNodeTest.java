package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A queued node whose client forgot it while its session lives on (a create whose answer was lost, say) never gets
 * claimed. Without a bound, every waiter behind it would wait for as long as that session lives; the waiter right
 * behind it removes it once it has stayed unclaimed at the head for twice the call timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeftBehindQueueNodeTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Duration CALL_TIMEOUT = Duration.ofMillis(500);
    private static final Duration UNCLAIMED_GRACE = CALL_TIMEOUT.multipliedBy(2);
    private static final String BASE = "/distlock-left-behind";

    private static TestZooKeeper zookeeper;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private CuratorFramework forgetful;
    private ZooKeeperLeaseStore holders;
    private ZooKeeperLeaseStore waiters;
    private String key;

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @BeforeEach
    void connect() throws Exception {
        forgetful = zookeeper.newClient();
        holders = ZooKeeperLeaseStore.builder(zookeeper.newClient())
                .basePath(BASE)
                .build();
        waiters = ZooKeeperLeaseStore.builder(zookeeper.newClient())
                .basePath(BASE)
                .callTimeout(CALL_TIMEOUT)
                .build();
        key = "left-behind:" + UUID.randomUUID();
    }

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        holders.close();
        waiters.close();
        forgetful.close();
    }

    @Test
    void aQueuedNodeLeftAtTheHeadIsRemovedOnlyAfterStayingUnclaimedForTwiceTheCallTimeout() throws Exception {
        String leftBehind = queueNodeNobodyWaitsFor();

        assertThat(Acquire.take(waiters, key, LONG, UNCLAIMED_GRACE.dividedBy(4)))
                .as("a node at the head is its owner's to claim for a while")
                .isNull();
        assertThat(forgetful.checkExists().forPath(leftBehind)).isNotNull();

        long start = System.nanoTime();
        StoreLease lease = Acquire.take(waiters, key, LONG, Duration.ofSeconds(20));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(lease).isNotNull();
        assertThat(waited).isGreaterThanOrEqualTo(UNCLAIMED_GRACE);
        assertThat(forgetful.checkExists().forPath(leftBehind)).isNull();
        assertThat(lease.release()).isTrue();
    }

    @Test
    void aWaiterBehindANodeLeftInTheQueueGetsTheKeyOnceTheHolderLeaves() throws Exception {
        StoreLease holder = Acquire.tryTake(holders, key, LONG);
        assertThat(holder).isNotNull();
        String leftBehind = queueNodeNobodyWaitsFor();
        CompletableFuture<StoreLease> waiter = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return Acquire.take(waiters, key, LONG, Duration.ofSeconds(30));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> forgetful.getChildren().forPath(queuePath()).size() == 3);

        assertThat(holder.release()).isTrue();

        StoreLease lease = waiter.get(40, TimeUnit.SECONDS);
        assertThat(lease).isNotNull();
        assertThat(forgetful.checkExists().forPath(leftBehind)).isNull();
        assertThat(lease.release()).isTrue();
    }

    /** A queued node as the store writes one, on a session that stays open but whose client never claims it. */
    private String queueNodeNobodyWaitsFor() throws Exception {
        byte[] queued = LeaseData.queued(LONG.toMillis(), UUID.randomUUID().toString(), "forgetful@host")
                .bytes();
        return forgetful
                .create()
                .creatingParentContainersIfNeeded()
                .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .forPath(ZKPaths.makePath(queuePath(), "lease-"), queued);
    }

    private String queuePath() {
        return ZKPaths.makePath(BASE, KeyNodes.nodeName(key));
    }
}
