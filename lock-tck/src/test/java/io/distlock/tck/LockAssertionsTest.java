package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LockAssertionsTest {

    private final StoreLock lock = StoreLock.builder(new InMemoryLeaseStore())
            .shutdownGracePeriod(Duration.ZERO)
            .build();
    private final String key = "order:" + UUID.randomUUID();

    @AfterEach
    void close() {
        lock.close();
    }

    @Test
    void workUnderTheLockPassesAndGetsItsHandle() throws Exception {
        LockHandle seen = lock.callWithLock(
                key, Lease.fixed(Duration.ofSeconds(30)), Duration.ZERO, () -> LockAssertions.assertRunsUnderLock(key));

        assertThat(seen.key()).isEqualTo(key);
    }

    @Test
    void workWithoutAnyLockFailsNamingTheKey() {
        assertThatThrownBy(() -> LockAssertions.assertRunsUnderLock(key))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("'" + key + "'")
                .hasMessageContaining("no lock at all");
    }

    @Test
    void workUnderAnotherKeyFailsNamingTheKeyHeldInstead() throws Exception {
        String other = key + ":other";
        lock.runWithLock(
                other,
                Lease.fixed(Duration.ofSeconds(30)),
                Duration.ZERO,
                () -> assertThatThrownBy(() -> LockAssertions.assertRunsUnderLock(key))
                        .isInstanceOf(AssertionError.class)
                        .hasMessageContaining("holds '" + other + "'"));
    }

    @Test
    void workWhoseLeaseRanOutFails() {
        LockHandle held =
                lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(50))).orElseThrow();
        try (LockContext.Scope scope = LockContext.enter(held)) {
            await().atMost(Duration.ofSeconds(10)).until(held::isLost);

            assertThatThrownBy(() -> LockAssertions.assertRunsUnderLock(key))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("the lock was lost");
        }
    }
}
