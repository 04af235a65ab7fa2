package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.LockLostException.Reason;
import io.distlock.store.LeaseReading;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The store on its own, against a real in-process ZooKeeper: queue order, fencing, server-clock leases, cleanup. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ZooKeeperLeaseStoreTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final String BASE = "/distlock-test";

    private static TestZooKeeper zookeeper;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private CuratorFramework firstClient;
    private ZooKeeperLeaseStore first;
    private ZooKeeperLeaseStore second;
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
        firstClient = zookeeper.newClient();
        first = ZooKeeperLeaseStore.builder(firstClient).basePath(BASE).build();
        second = ZooKeeperLeaseStore.builder(zookeeper.newClient())
                .basePath(BASE)
                .build();
        key = "store:" + UUID.randomUUID();
    }

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        first.close();
        second.close();
    }

    @Test
    void waitersAreServedInTheOrderTheyCame() throws Exception {
        StoreLease holder = Acquire.tryTake(first, key, LONG);
        assertThat(holder).isNotNull();
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Future<?>> waiters = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            int waiter = i;
            ZooKeeperLeaseStore store = i % 2 == 0 ? second : first;
            waiters.add(threads.submit(() -> {
                StoreLease lease = Acquire.take(store, key, LONG, LONG);
                order.add(waiter);
                Thread.sleep(50);
                return lease.release();
            }));
            // The next waiter starts only once this one is queued.
            await().atMost(Duration.ofSeconds(5)).until(() -> queue(key).size() == waiter + 1);
        }

        assertThat(holder.release()).isTrue();
        for (Future<?> waiter : waiters) {
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(true);
        }
        assertThat(order).containsExactly(1, 2, 3);
    }

    /**
     * The holder's name is in its node's data, and the grant's time (the node's {@code mtime} on the leader's clock)
     * survives extensions, which move the {@code mtime}; the bound around this machine's clock, on which the server
     * runs, is wide for any delay.
     */
    @Test
    void anotherClientReadsWhoHoldsTheKeyAndSinceTheGrantAlsoAfterAnExtension() throws Exception {
        Instant before = Instant.now().minus(Duration.ofMinutes(1));
        StoreLease held;
        try (LeaseStore.Acquisition acquisition = first.begin(key, "owner-a", "orders@host-1", LONG)) {
            held = acquisition.tryTake();
        }
        assertThat(held).isNotNull();

        LeaseReading granted = second.readLease(key).orElseThrow();
        assertThat(granted.holder()).isEqualTo("orders@host-1");
        assertThat(granted.since()).isBetween(before, Instant.now().plus(Duration.ofMinutes(1)));

        await().atMost(Duration.ofSeconds(5)).until(() -> zookeeperTimeIsPast(granted.since()));
        assertThat(held.extend(LONG)).isTrue();
        LeaseReading extended = second.readLease(key).orElseThrow();
        assertThat(extended.holder()).isEqualTo("orders@host-1");
        assertThat(extended.since()).isEqualTo(granted.since());
        assertThat(held.release()).isTrue();
        assertThat(second.readLease(key)).isEmpty();
    }

    @Test
    void dataWrittenBeforeNamesWereKeptReadsWithoutAHolder() {
        LeaseData old = LeaseData.parse("distlock1 held 30000 owner-a".getBytes(StandardCharsets.UTF_8));
        LeaseData named = LeaseData.parse(
                LeaseData.held(30000, "owner-a", 1234, "orders @ host 1").bytes());

        assertThat(old).isEqualTo(new LeaseData(true, 30000, "owner-a", 0, null));
        assertThat(old.grantedAt(999)).isEqualTo(999);
        assertThat(named).isEqualTo(new LeaseData(true, 30000, "owner-a", 1234, "orders @ host 1"));
        assertThat(named.grantedAt(999)).isEqualTo(1234);
    }

    /** Whether a write made now would get a later {@code mtime} than {@code since}. */
    private boolean zookeeperTimeIsPast(Instant since) {
        return Instant.now().isAfter(since.plusMillis(5));
    }

    @Test
    void fencingTokensStrictlyIncreaseAcrossClients() throws Exception {
        long previous = 0;
        for (int i = 0; i < 10; i++) {
            StoreLease lease = Acquire.tryTake(i % 2 == 0 ? first : second, key, LONG);
            assertThat(lease).isNotNull();
            assertThat(lease.fencingToken()).isGreaterThan(previous);
            previous = lease.fencingToken();
            assertThat(lease.release()).isTrue();
        }
    }

    @Test
    void anExpiredFixedLeaseIsRemovedByTheWaiterOnTheServersClock() throws Exception {
        StoreLease abandoned = Acquire.tryTake(first, key, Duration.ofMillis(300));
        assertThat(abandoned).isNotNull();
        CountDownLatch gone = new CountDownLatch(1);
        abandoned.whenGone(gone::countDown);

        long start = System.nanoTime();
        StoreLease taken = Acquire.take(second, key, LONG, Duration.ofSeconds(5));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(taken).isNotNull();
        assertThat(waited).isBetween(Duration.ofMillis(200), Duration.ofSeconds(2));
        assertThat(taken.fencingToken()).isGreaterThan(abandoned.fencingToken());
        assertThat(gone.await(5, TimeUnit.SECONDS))
                .as("the holder learns it is gone")
                .isTrue();
    }

    @Test
    void aStaleOwnerCannotExtendOrReleaseOnceItsNodeWasRemoved() throws Exception {
        StoreLease stale = Acquire.tryTake(first, key, Duration.ofMillis(200));
        StoreLease fresh = Acquire.take(second, key, LONG, Duration.ofSeconds(5));
        assertThat(fresh).isNotNull();

        assertThat(stale.extend(LONG)).isFalse();
        assertThat(stale.release()).isFalse();

        assertThat(queue(key)).hasSize(1);
        assertThat(Acquire.tryTake(first, key, LONG)).isNull();
        assertThat(fresh.extend(LONG)).isTrue();
        assertThat(fresh.release()).isTrue();
    }

    @Test
    void theHolderLearnsWhetherItsNodeStillHoldsTheKeyOnTheServersClock() throws Exception {
        StoreLease held = Acquire.tryTake(first, key, LONG);
        String runningOutKey = key + ":running-out";
        StoreLease runningOut = Acquire.tryTake(first, runningOutKey, Duration.ofMillis(200));

        assertThat(held.checkOwned()).as("while its lease runs").isEmpty();
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(runningOut.checkOwned())
                        .as("once its lease ran out on the server's clock")
                        .contains(Reason.KEY_GONE));
        assertThat(queue(runningOutKey))
                .as("the node that ran out, which nobody removed")
                .hasSize(1);

        String heldNode = ZKPaths.makePath(
                ZKPaths.makePath(BASE, KeyNodes.nodeName(key)), queue(key).get(0));
        zookeeper.newClient().delete().forPath(heldNode);
        assertThat(held.checkOwned()).as("once its node was removed").contains(Reason.KEY_GONE);
    }

    @Test
    void anExtendedLeaseIsNotTakenAway() throws Exception {
        StoreLease holder = Acquire.tryTake(first, key, Duration.ofMillis(400));
        Future<StoreLease> waiter = threads.submit(() -> Acquire.take(second, key, LONG, Duration.ofMillis(1500)));
        for (int i = 0; i < 8; i++) {
            Thread.sleep(200);
            assertThat(holder.extend(Duration.ofMillis(400))).isTrue();
        }

        assertThat(waiter.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(holder.release()).isTrue();
    }

    @Test
    void aWaiterThatGivesUpOrIsInterruptedLeavesNoNode() throws Exception {
        StoreLease holder = Acquire.tryTake(first, key, LONG);

        assertThat(Acquire.tryTake(second, key, LONG)).isNull();
        assertThat(queue(key)).hasSize(1);
        assertThat(Acquire.take(second, key, LONG, Duration.ofMillis(300))).isNull();
        assertThat(queue(key)).hasSize(1);

        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiting = new Thread(() -> {
            try {
                Acquire.take(second, key, LONG, LONG);
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        waiting.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> queue(key).size() == 2);
        waiting.interrupt();
        waiting.join(5_000);

        assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
        assertThat(queue(key)).hasSize(1);
        assertThat(holder.release()).isTrue();
        assertThat(queue(key)).isEmpty();
    }

    @Test
    void aReleasedLeaseIsNeverReportedGone() throws Exception {
        StoreLease lease = Acquire.tryTake(first, key, LONG);
        AtomicInteger gone = new AtomicInteger();
        lease.whenGone(gone::incrementAndGet);

        assertThat(lease.release()).isTrue();
        assertThat(lease.release()).isFalse();
        assertThat(lease.extend(LONG)).isFalse();
        Thread.sleep(200);
        assertThat(gone).hasValue(0);
    }

    @Test
    void theHolderCanExtendAndReleaseFromAnInterruptedThread() throws Exception {
        StoreLease lease = Acquire.tryTake(first, key, LONG);
        Thread.currentThread().interrupt();
        try {
            assertThat(lease.extend(LONG)).isTrue();
            assertThat(lease.release()).isTrue();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void keysWithSlashesDotsAndUnicodeAreKeysOfTheirOwn() throws Exception {
        List<String> keys = List.of(
                key + "/a", key + "/a/b", key + "/a/b/", "/", ".", "..", ".clock", "zookeeper", "ключ/ü/😀 " + key);
        List<StoreLease> held = new ArrayList<>();
        for (String each : keys) {
            StoreLease lease = Acquire.tryTake(first, each, LONG);
            assertThat(lease).as(each).isNotNull();
            assertThat(Acquire.tryTake(second, each, LONG)).as(each).isNull();
            held.add(lease);
        }
        for (StoreLease lease : held) {
            assertThat(lease.release()).isTrue();
        }
        assertThat(KeyNodes.nodeName("a/b")).isEqualTo("a%2Fb");
        assertThat(KeyNodes.nodeName(".clock")).isEqualTo("%2Eclock");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> first.validateKey("bad\uD800key"))
                .withMessageContaining("unpaired surrogate");
        first.validateKey("ok 😀");
    }

    @Test
    void theBasePathIsChecked() {
        ZooKeeperLeaseStore.Builder builder = ZooKeeperLeaseStore.builder(firstClient);
        assertThatIllegalArgumentException().isThrownBy(() -> builder.basePath("/"));
        assertThatIllegalArgumentException().isThrownBy(() -> builder.basePath("relative"));
        assertThatIllegalArgumentException().isThrownBy(() -> builder.basePath("/a/"));
        assertThatIllegalArgumentException().isThrownBy(() -> builder.basePath("/zookeeper/x"));
        assertThatThrownBy(() -> builder.sessionTimeout(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(builder.basePath("/a/b").build().describe()).endsWith("/a/b]");
    }

    @Test
    void aStoreWithItsOwnClientFreesItsKeysWhenClosed() throws Exception {
        ZooKeeperLeaseStore own = ZooKeeperLeaseStore.builder(zookeeper.connectString())
                .basePath(BASE)
                .sessionTimeout(Duration.ofSeconds(5))
                .build();
        assertThat(Acquire.take(own, key, LONG, Duration.ofSeconds(10))).isNotNull();
        CompletableFuture<StoreLease> next =
                CompletableFuture.supplyAsync(() -> takeQuietly(second, key, Duration.ofSeconds(10)), threads);

        own.close();

        assertThat(next.get(10, TimeUnit.SECONDS)).isNotNull();
    }

    private static StoreLease takeQuietly(LeaseStore store, String key, Duration wait) {
        try {
            return Acquire.take(store, key, LONG, wait);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> queue(String key) throws Exception {
        String parent = ZKPaths.makePath(BASE, KeyNodes.nodeName(key));
        return firstClient.checkExists().forPath(parent) == null
                ? List.of()
                : firstClient.getChildren().forPath(parent);
    }
}
