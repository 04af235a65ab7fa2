package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * The claims of a tree's paths on the store alone: holds of paths apart, dead holders, a claim's node left behind, and
 * waiters that wait only for holders.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ZooKeeperPathClaimsTest {

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
        assertThat(treeChildren()).as("refused acquisitions leave no node").hasSize(2);

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

    /**
     * A caller holds {@code a/1} and waits for {@code a/2}, behind a waiter for {@code a} and one for {@code a/2}, as
     * {@code acquireAll} of both does. Waiters that waited for earlier waiters would make a cycle here: the waiter for
     * {@code a} waits for the caller's {@code a/1}. Waiting only for holders, everyone is served.
     */
    @Test
    void aCallerHoldingOnePathGetsItsSiblingBesideWaitersForTheirParentAndTheSibling() throws Exception {
        StoreLease sibling = Acquire.takePath(second, tree, "a/2", LONG, Duration.ZERO);
        StoreLease own = Acquire.takePath(first, tree, "a/1", LONG, Duration.ZERO);
        assertThat(sibling).isNotNull();
        assertThat(own).isNotNull();
        Future<Boolean> parent = threads.submit(() -> takeAndRelease(second, "a"));
        Future<Boolean> siblingWaiter = threads.submit(() -> takeAndRelease(second, "a/2"));
        Future<StoreLease> caller = threads.submit(() -> Acquire.takePath(first, tree, "a/2", LONG, LONG));
        await().during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> !parent.isDone() && !siblingWaiter.isDone() && !caller.isDone());

        assertThat(sibling.release()).isTrue();

        StoreLease callersSibling = caller.get(10, TimeUnit.SECONDS);
        assertThat(callersSibling).as("the caller gets a/2 while holding a/1").isNotNull();
        assertThat(callersSibling.release()).isTrue();
        assertThat(own.release()).isTrue();
        assertThat(siblingWaiter.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(parent.get(10, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * A claim whose answer was lost leaves a granted node of its owner's, which would otherwise keep the path until its
     * lease ran out; the owner's next read of the tree removes it and claims the path again.
     */
    @Test
    void aNodeLeftByAClaimWhoseAnswerWasLostIsRemovedByItsOwner() throws Exception {
        String owner = UUID.randomUUID().toString();
        String treeNode = PathNodes.treePath(BASE, tree);
        firstClient
                .create()
                .creatingParentContainersIfNeeded()
                .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .forPath(
                        ZKPaths.makePath(treeNode, PathNodes.namePrefix(List.of("a"))),
                        LeaseData.held(LONG.toMillis(), owner, 0, "test").bytes());

        try (LeaseStore.Acquisition again = first.beginPath(tree, List.of("a"), owner, "test", LONG)) {
            StoreLease lease = again.tryTake();

            assertThat(lease).isNotNull();
            assertThat(treeChildren()).hasSize(1);
            assertThat(lease.release()).isTrue();
        }
        assertThat(treeChildren()).isEmpty();
    }

    private Boolean takeAndRelease(ZooKeeperLeaseStore store, String path) throws Exception {
        StoreLease lease = Acquire.takePath(store, tree, path, LONG, LONG);
        return lease != null && lease.release();
    }

    private List<String> treeChildren() throws Exception {
        String treeNode = PathNodes.treePath(BASE, tree);
        return firstClient.checkExists().forPath(treeNode) == null
                ? List.of()
                : firstClient.getChildren().forPath(treeNode);
    }
}
