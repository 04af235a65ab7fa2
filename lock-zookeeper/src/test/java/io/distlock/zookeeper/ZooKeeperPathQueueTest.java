package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The queue of a tree's paths on the store alone: holds of paths apart, dead holders, and the order of waiters. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ZooKeeperPathQueueTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Duration SHORT_LEASE = Duration.ofSeconds(1);
    private static final String BASE = "/distlock-path-test";

    private static TestZooKeeper zookeeper;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private CuratorFramework firstClient;
    private ZooKeeperLeaseStore first;
    private ZooKeeperLeaseStore second;
    private String tree;

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
        tree = "tree:" + UUID.randomUUID();
    }

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        first.close();
        second.close();
    }

    @Test
    void siblingsAreHeldAtOnceWhileTheirAncestorsAndDescendantsWait() throws Exception {
        StoreLease held = Acquire.takePath(first, tree, "A/B", LONG, Duration.ZERO);
        assertThat(held).isNotNull();

        StoreLease sibling = Acquire.takePath(second, tree, "A/C", LONG, Duration.ZERO);
        assertThat(sibling).as("a sibling is apart").isNotNull();
        assertThat(sibling.fencingToken()).isGreaterThan(held.fencingToken());
        for (String conflicting : List.of("A/B", "A", "", "A/B/D")) {
            assertThat(Acquire.takePath(second, tree, conflicting, LONG, Duration.ZERO))
                    .as("'%s' while 'A/B' is held", conflicting)
                    .isNull();
        }
        assertThat(queue()).as("refused acquisitions leave no node").hasSize(2);

        assertThat(held.release()).isTrue();
        assertThat(sibling.release()).isTrue();
        StoreLease whole = Acquire.takePath(second, tree, "", LONG, Duration.ZERO);
        assertThat(whole).isNotNull();
        assertThat(whole.fencingToken()).isGreaterThan(sibling.fencingToken());
        assertThat(whole.release()).isTrue();
    }

    /** A node's name carries its path encoded, so that dots, spaces, '%' and any script in a segment are read back. */
    @Test
    void pathsOfAnyTextAreReadBackFromTheirNodeNames() throws Exception {
        StoreLease held = Acquire.takePath(first, tree, "a b.c/%2F/ä ü.", LONG, Duration.ZERO);
        assertThat(held).isNotNull();

        assertThat(Acquire.takePath(second, tree, "a b.c", LONG, Duration.ZERO))
                .as("an ancestor")
                .isNull();
        StoreLease apart = Acquire.takePath(second, tree, "a b.c/%2F/ä ü", LONG, Duration.ZERO);
        assertThat(apart).as("a sibling that differs in its last character").isNotNull();
        assertThat(apart.release()).isTrue();
        assertThat(held.release()).isTrue();
    }

    @Test
    void aTreeOrPathThatIsNotValidUnicodeIsRefusedNamingTheRule() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> first.validatePath(tree, List.of("a", "b\uD800")))
                .withMessageContaining("path must be valid Unicode text")
                .withMessageContaining("unpaired surrogate");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> first.validatePath("t\uDC00", List.of("a")))
                .withMessageContaining("tree name must be valid Unicode text");
    }

    /** The holder's session lives on and never releases: its node stays until a waiter finds its lease ran out. */
    @Test
    void aHoldWhoseLeaseRanOutKeepsItsAncestorOnlyUntilItsLeaseEnds() throws Exception {
        StoreLease abandoned = Acquire.takePath(first, tree, "A/B/C", SHORT_LEASE, Duration.ZERO);
        assertThat(abandoned).isNotNull();
        long start = System.nanoTime();

        StoreLease ancestor = Acquire.takePath(second, tree, "A", LONG, Duration.ofSeconds(10));

        assertThat(ancestor).as("granted once the descendant's lease ran out").isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isGreaterThanOrEqualTo(SHORT_LEASE.minusMillis(200))
                .isLessThan(Duration.ofSeconds(5));
        assertThat(ancestor.fencingToken()).isGreaterThan(abandoned.fencingToken());
        assertThat(ancestor.release()).isTrue();
    }

    /** The holder's client closes without releasing, as a process that died: its session ends and frees the path. */
    @Test
    void aHoldWhoseSessionEndedFreesItsAncestorAtOnce() throws Exception {
        assertThat(Acquire.takePath(first, tree, "A/B", LONG, Duration.ZERO)).isNotNull();
        Future<StoreLease> waiting = threads.submit(() -> Acquire.takePath(second, tree, "A", LONG, LONG));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());

        long closed = System.nanoTime();
        firstClient.close();

        StoreLease ancestor = waiting.get(10, TimeUnit.SECONDS);
        assertThat(ancestor).isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - closed))
                .as("long before the 30 s lease ended")
                .isLessThan(Duration.ofSeconds(5));
        assertThat(ancestor.release()).isTrue();
    }

    /** A later waiter of a path apart from the holder's still waits behind an earlier one that its path conflicts with. */
    @Test
    void waitersOfConflictingPathsAreServedInTheOrderTheyCame() throws Exception {
        StoreLease held = Acquire.takePath(first, tree, "A/B", LONG, Duration.ZERO);
        assertThat(held).isNotNull();
        List<String> order = new CopyOnWriteArrayList<>();
        Future<Boolean> ancestor = threads.submit(() -> takeInTurn(first, "A", order));
        await().atMost(Duration.ofSeconds(5)).until(() -> queue().size() == 2);
        Future<Boolean> cousin = threads.submit(() -> takeInTurn(second, "A/C", order));
        await().atMost(Duration.ofSeconds(5)).until(() -> queue().size() == 3);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !cousin.isDone());

        assertThat(held.release()).isTrue();

        assertThat(ancestor.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(cousin.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("A", "A/C");
    }

    private Boolean takeInTurn(ZooKeeperLeaseStore store, String path, List<String> order) throws Exception {
        StoreLease lease = Acquire.takePath(store, tree, path, LONG, LONG);
        order.add(path);
        return lease.release();
    }

    private List<String> queue() throws Exception {
        String parent = PathNodes.queuePath(BASE, tree);
        return firstClient.checkExists().forPath(parent) == null
                ? List.of()
                : firstClient.getChildren().forPath(parent);
    }
}
