package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.internal.engine.OfferedKinds;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import org.junit.jupiter.api.Test;

/**
 * {@link Lock#kind(Kind)} answers empty for a kind the backend lacks, and the typed shortcuts fail naming the kind; a
 * kind is registered once.
 */
class KindLookupTest {

    @Test
    void aLockWithoutAKindAnswersEmptyAndItsShortcutsNameTheKind() {
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            assertThat(lock.kind(Kind.FAIR)).isEmpty();
            assertThat(lock.kind(Kind.READ)).isEmpty();
            assertThat(lock.kind(Kind.PATH)).isEmpty();
            assertThat(lock.kind(Kind.FAIR).orElse(lock)).isSameAs(lock);
            assertThatThrownBy(lock::fair)
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessage("StoreLock has no fair lock");
            assertThatThrownBy(lock::reading).hasMessage("StoreLock has no read lock");
            assertThatThrownBy(() -> lock.tree("projects")).hasMessage("StoreLock has no path lock");
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
