package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.internal.engine.OfferedKinds;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import org.junit.jupiter.api.Test;

/**
 * {@link Lock#kind(Kind)} answers empty for a kind the backend lacks, and the typed shortcuts fail naming the kind; a
 * store that serves waiters in arrival order makes its lock its own fair lock; a kind is registered once.
 */
class KindLookupTest {

    /** A tree's path lock offers no kind of its own. */
    @Test
    void aLockAnswersEmptyForAKindItLacksAndItsShortcutsNameTheKind() {
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            Lock tree = lock.tree("projects");

            assertThat(tree.kind(Kind.PATH)).isEmpty();
            assertThatThrownBy(() -> tree.tree("other"))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessage("StoreTree has no path lock");
            assertThatThrownBy(tree::reading)
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessage("StoreTree has no read lock");
        }
    }

    /** The in-memory store serves waiters in the order they came, so its lock is its own fair lock. */
    @Test
    void aLockWhoseStoreServesWaitersInOrderIsItsOwnFairLock() {
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            assertThat(lock.kind(Kind.FAIR)).containsSame(lock);
            assertThat(lock.fair()).isSameAs(lock);
        }
    }

    /** The in-memory store shares keys between readers, so its lock has a read side, of its own and the same each time. */
    @Test
    void aLockWhoseStoreHasReadersOffersItsReadSide() {
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            Lock reading = lock.reading();

            assertThat(reading).isNotSameAs(lock);
            assertThat(lock.kind(Kind.READ)).containsSame(reading);
            assertThat(reading.kind(Kind.READ)).isEmpty();
        }
    }

    @Test
    void aRegisteredKindIsFoundAndCannotBeRegisteredTwice() {
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            OfferedKinds kinds = OfferedKinds.none().with(Kind.FAIR, lock);

            assertThat(kinds.find(Kind.FAIR)).containsSame(lock);
            assertThat(kinds.find(Kind.READ)).isEmpty();
            assertThatThrownBy(() -> kinds.with(Kind.FAIR, lock))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("the fair lock is registered already");
        }
    }
}
