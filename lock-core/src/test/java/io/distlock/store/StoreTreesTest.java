package io.distlock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.memory.InMemoryLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The trees of a {@link StoreLock}: a tree's lock is kept while it is used or holds a path, and let go otherwise, so
 * that tree names taken from requests do not grow the lock without bound; a tree that holds a path keeps its hold's
 * re-entry, whichever {@link Lock} of the tree asks.
 */
class StoreTreesTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));

    @Test
    void theLocksOfTreesThatHoldNothingAreLetGoAndThoseThatHoldAreKept() {
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            StoreTrees trees = (StoreTrees) lock.kind(Kind.PATH).orElseThrow();
            LockHandle held = lock.tree("held").tryAcquire("a", LEASE).orElseThrow();

            for (int project = 0; project < 1_000; project++) {
                lock.tree("project:" + project)
                        .tryAcquire("a/b", LEASE)
                        .orElseThrow()
                        .release();
            }

            assertThat(trees.kept())
                    .as("tree locks kept after 1,000 trees were used once")
                    .isLessThanOrEqualTo(128);
            try (LockContext.Scope scope = LockContext.enter(held)) {
                LockHandle nested = lock.tree("held").tryAcquire("a/b/c", LEASE).orElseThrow();
                assertThat(nested.key())
                        .as("joined the hold kept through the sweeps")
                        .isEqualTo("a");
                assertThat(nested.fencingToken()).isEqualTo(held.fencingToken());
                nested.release();
            }
            assertThat(lock.heldLocks())
                    .as("the tree's hold is listed with its tree")
                    .singleElement()
                    .satisfies(listed -> {
                        assertThat(listed.key()).isEqualTo("a");
                        assertThat(listed.tree()).isEqualTo("held");
                    });
            held.release();
        }
    }

    @Test
    void aClosedLocksTreesRefuseAcquisitionsNamingTheTreeAndThePath() {
        StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build();
        Lock tree = lock.tree("project:7");
        lock.close();

        assertThatThrownBy(() -> tree.tryAcquire("src/main", LEASE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'src/main'")
                .hasMessageContaining("'project:7'")
                .hasMessageContaining("closed");
    }
}
