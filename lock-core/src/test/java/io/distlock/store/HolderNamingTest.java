package io.distlock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.monitor.KeyState;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lock's instance name travels with its holds through the store: another instance's key state names it, and a wait
 * that runs out says whom it waited for.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HolderNamingTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final StoreLock orders = StoreLock.builder(store)
            .instanceName("orders@host-1")
            .shutdownGracePeriod(Duration.ZERO)
            .build();
    private final StoreLock other =
            StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();

    @AfterEach
    void close() {
        orders.close();
        other.close();
    }

    @Test
    void anotherInstanceSeesWhoHoldsTheKeyAndSinceWhen() {
        Instant before = Instant.now();
        try (LockHandle held = orders.tryAcquire("stock:42", LEASE).orElseThrow()) {
            KeyState state = other.keyState("stock:42");

            assertThat(state.holder()).isEqualTo("orders@host-1");
            assertThat(state.heldSince()).isBetween(before, Instant.now());
            assertThat(state.heldByThisInstance()).isFalse();
        }
        assertThat(other.keyState("stock:42").holder()).isNull();
    }

    @Test
    void aWaitThatRunsOutNamesTheHolderAndTheWorkDoesNotRun() {
        AtomicBoolean ran = new AtomicBoolean();
        try (LockHandle held = orders.tryAcquire("stock:42", LEASE).orElseThrow()) {
            assertThatThrownBy(() -> other.runWithLock("stock:42", LEASE, Duration.ofMillis(50), () -> ran.set(true)))
                    .isInstanceOfSatisfying(LockNotAcquiredException.class, e -> {
                        assertThat(e.holder()).contains("orders@host-1");
                        assertThat(e.waited()).isEqualTo(Duration.ofMillis(50));
                    })
                    .hasMessage("Lock 'stock:42' was not acquired within PT0.05S; it was held by 'orders@host-1'"
                            + " when the wait ended");
        }
        assertThat(ran).isFalse();
    }

    @Test
    void theDefaultNameIsTheProcessAndTheHost() {
        try (LockHandle held = other.tryAcquire("stock:42", LEASE).orElseThrow()) {
            assertThat(orders.keyState("stock:42").holder())
                    .startsWith(ProcessHandle.current().pid() + "@")
                    .hasSizeGreaterThan((ProcessHandle.current().pid() + "@").length());
        }
    }

    @Test
    void anInvalidNameIsRefusedNamingWhatIsAllowed() {
        assertThatThrownBy(() -> StoreLock.builder(store).instanceName(" ").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("instance name must be 1 to 100 printable characters, not blank, without '+' or '*', but"
                        + " was \" \" (1 characters)");
        assertThatThrownBy(() -> StoreLock.builder(store).instanceName("a\nb").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("printable");
    }
}
