package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LOADED_MACHINE_MARGIN;
import static io.distlock.tck.contract.ContractTimes.LONG;
import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises about {@link LockHandle#releaseHoldingAtLeast}: a quick release still keeps the key
 * from everyone until the minimum has passed since the grant, counted by the store, and not a moment less; a minimum
 * already past releases at once; a lost hold is reported and touches nothing. {@link LockContract} runs it for each
 * implementation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public interface MinimumHoldContract extends ContractSubject {

    /** The minimum of these cases: long enough to tell from an immediate release on a loaded machine. */
    Duration MINIMUM = Duration.ofMillis(1000);

    /**
     * A job that ends at once keeps other instances out for the minimum, and the next one gets the key once it passed.
     * Its grant came after {@code before}, and the store held the key for the minimum after its grant, so the next
     * acquisition ends at least the minimum after {@code before}, whatever the machine's load.
     */
    @Test
    default void aQuickReleaseKeepsTheKeyFromOthersUntilTheMinimumHasPassed() throws InterruptedException {
        Lock instance = connectedClient();
        Lock other = connectedClient();
        String key = key("job");

        long before = System.nanoTime();
        instance.tryAcquire(key, LONG_LEASE).orElseThrow().releaseHoldingAtLeast(MINIMUM);

        assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
        LockHandle next = other.tryAcquire(key, LONG_LEASE, LONG).orElseThrow();
        Duration taken = Duration.ofNanos(System.nanoTime() - before);
        assertThat(taken).isGreaterThanOrEqualTo(MINIMUM);
        assertThat(next.isHeld()).isTrue();
    }

    /** The owner cannot take the key back or release it early either: the minimum binds every client. */
    @Test
    default void theOwnerCannotReleaseOrRetakeTheKeyDuringTheMinimum() {
        Lock instance = connectedClient();
        String key = key("job");
        LockHandle held = instance.tryAcquire(key, LONG_LEASE).orElseThrow();

        held.releaseHoldingAtLeast(MINIMUM);

        assertThat(held.isHeld()).isFalse();
        assertThatThrownBy(held::release).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> held.releaseHoldingAtLeast(MINIMUM)).isInstanceOf(IllegalStateException.class);
        assertThat(instance.tryAcquire(key, LONG_LEASE)).isEmpty();
    }

    /**
     * An auto-renewed lease stops being renewed and runs out with the minimum, long before the watchdog's lease would.
     */
    @Test
    default void aRenewedLeaseRunsOutWithTheMinimumNotWithItsWatchdogLease() throws InterruptedException {
        Lock instance = connectedClient();
        Lock other = connectedClient();
        String key = key("job");
        instance.tryAcquire(key, Lease.renewed()).orElseThrow().releaseHoldingAtLeast(MINIMUM);

        long start = System.nanoTime();
        LockHandle next = other.tryAcquire(key, LONG_LEASE, LONG).orElseThrow();

        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(MINIMUM.plus(Duration.ofSeconds(2)).plus(LOADED_MACHINE_MARGIN));
        assertThat(next.isHeld()).isTrue();
    }

    /** A minimum that has passed already is an ordinary release: the key is free at once. */
    @Test
    default void aMinimumAlreadyPastReleasesAtOnce() {
        Lock instance = connectedClient();
        Lock other = connectedClient();
        String key = key("job");
        LockHandle held = instance.tryAcquire(key, LONG_LEASE).orElseThrow();
        long acquired = System.nanoTime();
        await().atMost(LONG).until(() -> System.nanoTime() - acquired > TimeUnit.MILLISECONDS.toNanos(20));

        held.releaseHoldingAtLeast(Duration.ofMillis(10));

        assertThat(other.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    /** A holder whose lease ran out learns it, and the new owner's lease is left as it was. */
    @Test
    default void aLostHoldIsReportedAndTheNewOwnersLeaseIsUntouched() throws InterruptedException {
        Lock stale = connectedClient();
        Lock current = connectedClient();
        String key = key("job");
        LockHandle old =
                stale.tryAcquire(key, Lease.fixed(Duration.ofMillis(200))).orElseThrow();
        LockHandle fresh =
                current.tryAcquire(key, LONG_LEASE, Duration.ofSeconds(5)).orElseThrow();

        assertThatThrownBy(() -> old.releaseHoldingAtLeast(Duration.ofSeconds(10)))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining(key);

        assertThat(fresh.isHeld()).isTrue();
        assertThat(fresh.remainingLease()).isGreaterThan(Duration.ofSeconds(20));
    }

    /** A minimum outside what a lease may be is refused, and the hold stays as it was. */
    @Test
    default void aMinimumOutOfRangeIsRefusedAndTheHoldStays() {
        Lock instance = connectedClient();
        String key = key("job");
        LockHandle held = instance.tryAcquire(key, LONG_LEASE).orElseThrow();

        assertThatIllegalArgumentException().isThrownBy(() -> held.releaseHoldingAtLeast(Duration.ZERO));
        assertThatIllegalArgumentException().isThrownBy(() -> held.releaseHoldingAtLeast(null));

        assertThat(held.isHeld()).isTrue();
        held.release();
    }
}
