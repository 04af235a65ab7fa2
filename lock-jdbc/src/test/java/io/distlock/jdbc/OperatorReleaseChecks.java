package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's release on a real database ({@link JdbcLeaseStore#releaseForOperator(String, long)}): it frees only
 * the grant whose fencing token it names, so a newer holder keeps the key, and the holder it freed is told why.
 */
abstract class OperatorReleaseChecks {

    private static final Duration LONG = Duration.ofSeconds(30);

    private final List<AutoCloseable> closing = new ArrayList<>();
    private JdbcLeaseStore store;
    private String key;

    /** The database under test. */
    abstract DataSource dataSource();

    @BeforeEach
    void newStore() {
        store = JdbcLeaseStore.builder(dataSource()).build();
        closing.add(store);
        key = "operator:" + UUID.randomUUID();
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : closing) {
            closeable.close();
        }
    }

    @Test
    void anOperatorFreesTheHoldAndItsHolderLearnsAtItsNextRenewalThatAnOperatorDidIt() throws Exception {
        StoreLock lock = lock();
        AtomicReference<Reason> lost = new AtomicReference<>();
        LockHandle held = lock.acquire(key, Lease.renewed());
        held.onLost(exception -> lost.set(exception.reason()));

        assertThat(store.releaseForOperator(key, held.fencingToken())).isTrue();

        await().atMost(Duration.ofSeconds(20)).until(() -> lost.get() != null);
        assertThat(lost.get()).isEqualTo(Reason.RELEASED_BY_OPERATOR);
        assertThat(held.isLost()).isTrue();
        try (LockHandle next = lock().tryAcquire(key, Lease.fixed(LONG)).orElseThrow()) {
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
        }
    }

    @Test
    void aHolderWithAFixedLeaseLearnsAtItsReleaseThatAnOperatorFreedIt() throws Exception {
        LockHandle held = lock().acquire(key, Lease.fixed(LONG));

        assertThat(store.releaseForOperator(key, held.fencingToken())).isTrue();

        assertThatExceptionOfType(LockLostException.class)
                .isThrownBy(held::release)
                .satisfies(lost -> assertThat(lost.reason()).isEqualTo(Reason.RELEASED_BY_OPERATOR));
    }

    @Test
    void aStaleFencingTokenLeavesTheNewHolderAlone() {
        StoreLease expired = tryTake(key, "owner-a", Duration.ofMillis(150));
        assertThat(expired).isNotNull();
        StoreLease current = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> tryTake(key, "owner-b", LONG), lease -> lease != null);

        assertThat(store.releaseForOperator(key, expired.fencingToken())).isFalse();
        assertThat(store.releaseForOperator(key + ":other", current.fencingToken()))
                .isFalse();

        assertThat(current.checkOwned()).isEmpty();
        assertThat(current.release()).isTrue();
        assertThat(store.releaseForOperator(key, current.fencingToken()))
                .as("a released key has no hold to free")
                .isFalse();
    }

    @Test
    void aKeyThatReadersHoldIsNotFreedByAnOperator() {
        StoreLease reading;
        try (LeaseStore.Acquisition acquisition = store.beginRead(key, "reader", "holder", LONG)) {
            reading = acquisition.tryTake();
        }
        assertThat(reading).isNotNull();

        assertThat(store.releaseForOperator(key, reading.fencingToken())).isFalse();
        assertThat(reading.checkOwned()).isEmpty();
        assertThat(reading.release()).isTrue();
    }

    /**
     * An operator's release of a hold races with its holder's release and a new grant, round after round: whatever the
     * order, the new grant, whose token is larger, is never freed.
     */
    @Test
    void anOperatorsReleaseRacingANewGrantNeverFreesTheNewHolder() throws Exception {
        int newGrants = 0;
        for (int round = 0; round < 40; round++) {
            StoreLease first = tryTake(key, "first-" + round, LONG);
            assertThat(first).isNotNull();
            CompletableFuture<StoreLease> next = CompletableFuture.supplyAsync(() -> {
                first.release();
                return tryTake(key, "next", LONG);
            });
            CompletableFuture<Boolean> operator =
                    CompletableFuture.supplyAsync(() -> store.releaseForOperator(key, first.fencingToken()));
            StoreLease taken = next.get(20, TimeUnit.SECONDS);
            operator.get(20, TimeUnit.SECONDS);

            if (taken != null) {
                newGrants++;
                assertThat(taken.fencingToken()).isGreaterThan(first.fencingToken());
                assertThat(taken.checkOwned())
                        .as("round %d: the new grant is still its holder's", round)
                        .isEmpty();
                assertThat(taken.release()).isTrue();
            }
        }

        assertThat(newGrants).as("rounds whose new grant found the key free").isEqualTo(40);
    }

    @Test
    void anOwnerTokenThatLooksLikeTheOperatorsMarkIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store.begin(key, "~operator", LONG))
                .withMessageContaining("must not start with '~'");
    }

    private StoreLock lock() {
        StoreLock lock =
                StoreLock.builder(store).watchdogLease(Duration.ofSeconds(1)).build();
        closing.add(0, lock);
        return lock;
    }

    private StoreLease tryTake(String key, String owner, Duration lease) {
        try (LeaseStore.Acquisition acquisition = store.begin(key, owner, lease)) {
            return acquisition.tryTake();
        }
    }
}
