package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An operator's release on a real ZooKeeper ({@link ZooKeeperLeaseStore#releaseForOperator(String, long)}): it frees
 * only the hold whose node the fencing token names, and the holder it freed hears why, through its node's watch or when
 * it next asks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZooKeeperOperatorReleaseTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final String BASE = "/distlock-operator";

    private static TestZooKeeper zookeeper;

    private ZooKeeperLeaseStore holderStore;
    private ZooKeeperLeaseStore operatorStore;
    private StoreLock holderLock;
    private String key;

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
        holderStore = ZooKeeperLeaseStore.builder(zookeeper.newClient())
                .basePath(BASE)
                .build();
        operatorStore = ZooKeeperLeaseStore.builder(zookeeper.newClient())
                .basePath(BASE)
                .build();
        holderLock = StoreLock.builder(holderStore).build();
        key = "operator:" + UUID.randomUUID();
    }

    @AfterEach
    void close() {
        holderLock.close();
        holderStore.close();
        operatorStore.close();
    }

    @Test
    void theFreedHolderHearsThroughItsWatchThatAnOperatorFreedIt() throws Exception {
        AtomicReference<Reason> lost = new AtomicReference<>();
        LockHandle held = holderLock.acquire(key, Lease.fixed(LONG));
        held.onLost(exception -> lost.set(exception.reason()));

        assertThat(operatorStore.releaseForOperator(key, held.fencingToken())).isTrue();

        await().atMost(Duration.ofSeconds(20)).until(() -> lost.get() != null);
        assertThat(lost.get()).isEqualTo(Reason.RELEASED_BY_OPERATOR);
        assertThat(zookeeper.newClient().checkExists().forPath(BASE + "/.released/" + held.fencingToken()))
                .as("the record, taken by the holder")
                .isNull();
        try (LockHandle next = StoreLock.builder(operatorStore)
                .build()
                .tryAcquire(key, Lease.fixed(LONG))
                .orElseThrow()) {
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
        }
    }

    @Test
    void aHolderThatAsksBeforeItsWatchFiresHearsTheSame() {
        StoreLease held = tryTake(holderStore, key, "owner-a");

        assertThat(operatorStore.releaseForOperator(key, held.fencingToken())).isTrue();

        assertThat(held.checkOwned()).contains(Reason.RELEASED_BY_OPERATOR);
        assertThat(held.release()).isFalse();
    }

    @Test
    void aStaleFencingTokenLeavesTheNewHolderAlone() {
        StoreLease first = tryTake(holderStore, key, "owner-a");
        assertThat(first.release()).isTrue();
        StoreLease current = tryTake(holderStore, key, "owner-b");

        assertThat(operatorStore.releaseForOperator(key, first.fencingToken())).isFalse();
        assertThat(operatorStore.releaseForOperator(key + ":other", current.fencingToken()))
                .isFalse();

        assertThat(current.checkOwned()).isEmpty();
        assertThat(current.release()).isTrue();
    }

    /** Round after round, an operator's release of a hold races with its release and a new grant. */
    @Test
    void anOperatorsReleaseRacingANewGrantNeverFreesTheNewHolder() throws Exception {
        for (int round = 0; round < 20; round++) {
            StoreLease first = tryTake(holderStore, key, "first-" + round);
            CompletableFuture<StoreLease> next = CompletableFuture.supplyAsync(() -> {
                first.release();
                return tryTake(holderStore, key, "next");
            });
            CompletableFuture<Boolean> operator =
                    CompletableFuture.supplyAsync(() -> operatorStore.releaseForOperator(key, first.fencingToken()));
            StoreLease taken = next.get(20, TimeUnit.SECONDS);
            operator.get(20, TimeUnit.SECONDS);

            assertThat(taken.fencingToken()).isGreaterThan(first.fencingToken());
            assertThat(taken.checkOwned())
                    .as("round %d: the new grant is still its holder's", round)
                    .isEmpty();
            assertThat(taken.release()).isTrue();
        }
    }

    @Test
    void aHolderWithAFixedLeaseThatReleasesAfterTheOperatorLearnsWhy() throws Exception {
        LockHandle held = holderLock.acquire(key, Lease.fixed(LONG));
        assertThat(operatorStore.releaseForOperator(key, held.fencingToken())).isTrue();

        assertThatExceptionOfType(LockLostException.class)
                .isThrownBy(held::release)
                .satisfies(lost -> assertThat(lost.reason()).isEqualTo(Reason.RELEASED_BY_OPERATOR));
    }

    private static StoreLease tryTake(LeaseStore store, String key, String owner) {
        try (LeaseStore.Acquisition acquisition = store.begin(key, owner, LONG)) {
            StoreLease taken = acquisition.tryTake();
            assertThat(taken).as("%s takes %s", owner, key).isNotNull();
            return taken;
        }
    }
}
