package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG;
import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static io.distlock.tck.contract.ContractTimes.SHORT_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;
import io.distlock.Trees;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a path lock promises ({@link Kind#PATH}): a path conflicts with itself, its ancestors and its descendants and
 * with nothing else, a waiter gets its path once the conflicting hold is released, a scope's descendants join its
 * hold, paths are read by the same rules on every backend, and trees are apart from each other and from plain keys.
 * {@link LockContract} runs it for each implementation whose clients offer path locks; elsewhere its cases are skipped.
 * That a tree's lock keeps every promise of a {@link Lock} is shown by running {@link LockContract} on it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // scopes are held in try-with-resources blocks that never name them
public interface PathContract extends ContractSubject {

    /**
     * A connected client's trees, skipping the case where the client offers no path locks.
     *
     * @return the trees
     */
    private Trees treesOfAClient() {
        Lock client = connectedClient();
        Optional<Trees> trees = client.kind(Kind.PATH);
        assumeTrue(trees.isPresent(), client + " offers no path locks");
        return trees.get();
    }

    @Test
    default void aPathConflictsWithItselfItsAncestorsAndItsDescendantsButNotWithItsSiblings() {
        String tree = key("tree");
        Lock mine = treesOfAClient().tree(tree);
        Lock other = treesOfAClient().tree(tree);
        LockHandle held = mine.tryAcquire("A/C", LONG_LEASE).orElseThrow();

        for (String conflicting : List.of("A/C", "A", "", "A/C/D", "A/C/D/E")) {
            assertThat(other.tryAcquire(conflicting, LONG_LEASE))
                    .as("'%s' is refused while 'A/C' is held", conflicting)
                    .isEmpty();
        }
        for (String apart : List.of("A/B", "A/Cx", "B", "AC", "B/A/C")) {
            LockHandle granted = other.tryAcquire(apart, LONG_LEASE)
                    .orElseThrow(() -> new AssertionError("'" + apart + "' is apart from 'A/C'"));
            assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
            granted.release();
        }
        held.release();
        other.tryAcquire("", LONG_LEASE).orElseThrow().release();
    }

    @Test
    default void aWaiterForAnAncestorGetsItOnceTheDescendantIsReleased() throws Exception {
        String tree = key("tree");
        LockHandle held =
                treesOfAClient().tree(tree).tryAcquire("A/B/C", LONG_LEASE).orElseThrow();
        Lock waiter = treesOfAClient().tree(tree);
        Future<Optional<LockHandle>> waiting = contractThreads().submit(() -> waiter.tryAcquire("A", LONG_LEASE, LONG));
        await().during(SHORT_WAIT).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());

        long released = System.nanoTime();
        held.release();

        LockHandle taken = waiting.get(LONG.toSeconds(), TimeUnit.SECONDS).orElseThrow();
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .as("got the ancestor long before its wait of %s ended", LONG)
                .isLessThan(LONG.dividedBy(2));
        assertThat(taken.key()).isEqualTo("A");
        assertThat(taken.fencingToken()).isGreaterThan(held.fencingToken());
        taken.release();
    }

    @Test
    default void insideAScopeOfAPathItsDescendantsJoinTheHoldAndTheSameTextInAnotherTreeDoesNot() throws Exception {
        Trees trees = treesOfAClient();
        Lock lock = trees.tree(key("tree"));
        Lock otherTree = trees.tree(key("other-tree"));
        LockHandle outer = lock.tryAcquire("A", LONG_LEASE).orElseThrow();
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            LockHandle nested = lock.tryAcquire("A/B/C", LONG_LEASE).orElseThrow();
            assertThat(nested.key()).as("the held path's key").isEqualTo("A");
            assertThat(nested.fencingToken()).isEqualTo(outer.fencingToken());
            nested.release();
            assertThat(outer.isHeld()).as("held until its own release").isTrue();

            LockHandle apart = otherTree.tryAcquire("A/B", LONG_LEASE).orElseThrow();
            assertThat(apart.key()).isEqualTo("A/B");
            apart.release();
        }
        Lock other = treesOfAClient().tree(key("tree"));
        assertThat(other.tryAcquire("A/B", LONG_LEASE))
                .as("still held by the outer hold")
                .isEmpty();
        outer.release();
        other.tryAcquire("A/B", LONG_LEASE).orElseThrow().release();
    }

    @Test
    default void insideAScopeOfAPathAnAsynchronousAcquisitionOfItOrBelowItFailsAtOnce() throws Exception {
        Lock lock = treesOfAClient().tree(key("tree"));
        LockHandle outer = lock.tryAcquire("A", LONG_LEASE).orElseThrow();
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            for (String joined : List.of("A", "/A/", "A/B/C")) {
                CompletableFuture<Optional<LockHandle>> stage =
                        lock.tryAcquireAsync(joined, LONG_LEASE, LONG).toCompletableFuture();
                assertThat(stage)
                        .as("'%s' inside the scope of 'A', which it would wait for", joined)
                        .isCompletedExceptionally();
                assertThatThrownBy(stage::join)
                        .hasCauseInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("a scope of the calling thread");
            }
            LockHandle apart = lock.tryAcquireAsync("B", LONG_LEASE, LONG)
                    .toCompletableFuture()
                    .get(LONG.toSeconds(), TimeUnit.SECONDS)
                    .orElseThrow();
            assertThat(apart.key()).isEqualTo("B");
            apart.release();
        }
        outer.release();
    }

    @Test
    default void pathsAreNormalizedAndInvalidOnesAreRefusedNamingTheRules() {
        Lock lock = treesOfAClient().tree(key("tree"));
        LockHandle spelled = lock.tryAcquire("/A/C/", LONG_LEASE).orElseThrow();
        assertThat(spelled.key()).isEqualTo("A/C");
        assertThat(treesOfAClient().tree(key("tree")).tryAcquire("A/C", LONG_LEASE))
                .as("one path however spelled")
                .isEmpty();
        spelled.release();
        LockHandle whole = lock.tryAcquire("/", LONG_LEASE).orElseThrow();
        assertThat(whole.key()).as("the whole tree").isEmpty();
        whole.release();

        assertThatThrownBy(() -> lock.tryAcquire("A//B", LONG_LEASE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank")
                .hasMessageContaining("separated by '/'");
        assertThatThrownBy(() -> lock.tryAcquire("A/../B", LONG_LEASE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"..\"");
        assertThatThrownBy(() -> lock.tryAcquire("A/" + "x/".repeat(70), LONG_LEASE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most");
        assertThatThrownBy(() -> treesOfAClient().tree(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tree name");
    }

    @Test
    default void treesAreApartFromEachOtherAndFromThePlainKeys() {
        Lock client = connectedClient();
        String tree = key("tree");
        LockHandle path =
                treesOfAClient().tree(tree).tryAcquire("x", LONG_LEASE).orElseThrow();
        LockHandle otherTree = treesOfAClient()
                .tree(key("other-tree"))
                .tryAcquire("x", LONG_LEASE)
                .orElseThrow();
        LockHandle plainTree = client.tryAcquire(tree, LONG_LEASE).orElseThrow();
        LockHandle plainPath = client.tryAcquire(key("x"), LONG_LEASE).orElseThrow();
        for (LockHandle handle : List.of(path, otherTree, plainTree, plainPath)) {
            handle.release();
        }
    }

    @Test
    default void severalPathsAreTakenTogetherAndPathsThatContainEachOtherAreRefused() throws Exception {
        String tree = key("tree");
        Lock lock = treesOfAClient().tree(tree);
        try (MultiLockHandle both = lock.acquireAll(List.of("A/C", "A/B"), LONG_LEASE)) {
            assertThat(treesOfAClient().tree(tree).tryAcquire("A", LONG_LEASE)).isEmpty();
        }
        assertThatThrownBy(() -> lock.acquireAll(List.of("A/B", "A"), LONG_LEASE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contain each other");
        treesOfAClient().tree(tree).tryAcquire("A", LONG_LEASE).orElseThrow().release();
    }
}
