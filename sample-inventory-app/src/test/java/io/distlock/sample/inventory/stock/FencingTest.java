package io.distlock.sample.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.sample.inventory.InventoryTest;
import io.distlock.sample.inventory.Skus;
import io.distlock.sample.inventory.SlowInventoryTasks.SlowDeduction;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A holder whose lease runs out while it is paused cannot write over the holder that came after it. */
@InventoryTest
class FencingTest {

    @Autowired
    private Lock lock;

    @Autowired
    private InventoryService inventory;

    @Autowired
    private FencedStockWriter stock;

    @Autowired
    private SlowDeduction slowDeduction;

    private final String sku = Skus.unique();

    @Test
    void holderPausedPastItsLeaseHasItsLateWriteRejectedWhileTheNewerWriteStands() throws Exception {
        inventory.setStock(sku, 10);
        LockHandle paused = lock.tryAcquire("stock:" + sku, Lease.fixed(Duration.ofMillis(300)))
                .orElseThrow();
        long read = stock.readForUpdate(sku, paused.fencingToken()).orElseThrow();

        await().atMost(Duration.ofSeconds(5)).until(paused::isLost);
        long newer = onAnotherThread(() -> inventory.deduct(sku, 3));

        assertThat(newer).isEqualTo(7);
        assertThatThrownBy(() -> stock.write(sku, read - 1, paused.fencingToken()))
                .isInstanceOfSatisfying(StaleWriteRejectedException.class, e -> {
                    assertThat(e.sku()).isEqualTo(sku);
                    assertThat(e.token()).isEqualTo(paused.fencingToken());
                });
        assertThat(inventory.stock(sku)).contains(7L);
        assertThatThrownBy(paused::release).isInstanceOf(LockLostException.class);
    }

    @Test
    void staleHolderWakingBetweenTheNewerHoldersReadAndWriteCannotLoseItsDeduction() throws Exception {
        inventory.setStock(sku, 10);
        LockHandle paused = lock.tryAcquire("stock:" + sku, Lease.fixed(Duration.ofMillis(300)))
                .orElseThrow();
        long staleRead = stock.readForUpdate(sku, paused.fencingToken()).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(paused::isLost);

        try (LockHandle newer =
                onAnotherThread(() -> lock.tryAcquire("stock:" + sku, Lease.fixed(Duration.ofSeconds(10)))
                        .orElseThrow())) {
            long newerRead = stock.readForUpdate(sku, newer.fencingToken()).orElseThrow();

            // Only the fenced read stops this write: Redis has not yet seen a write with the newer token.
            assertThatThrownBy(() -> stock.write(sku, staleRead - 1, paused.fencingToken()))
                    .isInstanceOf(StaleWriteRejectedException.class);
            stock.write(sku, newerRead - 2, newer.fencingToken());
        }
        assertThat(inventory.stock(sku)).contains(8L);
    }

    @Test
    void annotatedMethodThatOutlivesItsLeaseThrowsLockLostAfterItsWrite() {
        inventory.setStock(sku, 10);

        assertThatThrownBy(() -> slowDeduction.deductAfterPause(sku, 1, Duration.ofMillis(1300), new CountDownLatch(1)))
                .isInstanceOfSatisfying(LockLostException.class, e -> {
                    assertThat(e.key()).isEqualTo("stock:" + sku);
                    assertThat(e.reason()).isEqualTo(LockLostException.Reason.LEASE_EXPIRED);
                });
        // Nobody took the lock meanwhile, so the fenced write was still the newest and was accepted.
        assertThat(inventory.stock(sku)).contains(9L);
    }

    @Test
    void annotatedMethodPausedPastItsLeaseIsRejectedOnceAnotherOrderWentThrough() throws Exception {
        inventory.setStock(sku, 10);
        CountDownLatch slowHasRead = new CountDownLatch(1);

        CompletableFuture<Long> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return slowDeduction.deductAfterPause(sku, 1, Duration.ofMillis(1800), slowHasRead);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        assertThat(slowHasRead.await(10, TimeUnit.SECONDS)).isTrue();
        // Waits for the slow holder's one-second lease to run out, then deducts while the slow one still sleeps.
        assertThat(inventory.deduct(sku, 2)).isEqualTo(8);

        assertThatThrownBy(() -> slow.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(StaleWriteRejectedException.class)
                .satisfies(e -> assertThat(e.getSuppressed()).hasAtLeastOneElementOfType(LockLostException.class));
        assertThat(inventory.stock(sku)).contains(8L);
    }

    private static <T> T onAnotherThread(java.util.function.Supplier<T> work) throws Exception {
        return CompletableFuture.supplyAsync(work).get(10, TimeUnit.SECONDS);
    }
}
