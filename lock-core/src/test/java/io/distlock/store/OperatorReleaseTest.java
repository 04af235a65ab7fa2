package io.distlock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.memory.InMemoryLeaseStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An operator's release on the in-memory store: the named hold only, and its holder hears why at once. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OperatorReleaseTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final StoreLock holder =
            StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();
    private final StoreLock operator =
            StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();

    @AfterEach
    void close() {
        holder.close();
        operator.close();
    }

    @Test
    void theNamedHoldIsReleasedAndItsHolderHearsWhy() {
        LockHandle held = holder.tryAcquire("job", Lease.renewed()).orElseThrow();

        assertThat(operator.releaseForOperator("job", held.fencingToken() + 1)).isFalse();
        assertThat(held.isLost()).isFalse();
        assertThat(operator.releaseForOperator("job", held.fencingToken())).isTrue();

        await().atMost(Duration.ofSeconds(10)).until(held::isLost);
        assertThatThrownBy(held::release)
                .isInstanceOfSatisfying(
                        LockLostException.class,
                        lost -> assertThat(lost.reason()).isEqualTo(LockLostException.Reason.RELEASED_BY_OPERATOR));
        assertThat(operator.tryAcquire("job", LEASE)).isPresent();
    }
}
