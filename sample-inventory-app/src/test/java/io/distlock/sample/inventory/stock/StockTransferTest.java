package io.distlock.sample.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.sample.inventory.InventoryTest;
import io.distlock.sample.inventory.Skus;
import io.distlock.sample.inventory.stock.StockTransferService.Transfer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@InventoryTest
class StockTransferTest {

    private static final int TRANSFERS_EACH_WAY = 40;
    private static final int THREADS_EACH_WAY = 3;

    @Autowired
    private StockTransferService transfers;

    @Autowired
    private InventoryService inventory;

    private final String a = Skus.unique();
    private final String b = Skus.unique();

    @Test
    void movesStockBetweenTwoSkus() {
        inventory.setStock(a, 10);
        inventory.setStock(b, 5);

        assertThat(transfers.transfer(a, b, 4)).isEqualTo(new Transfer(a, 6, b, 9));
        assertThat(inventory.stock(a)).contains(6L);
        assertThat(inventory.stock(b)).contains(9L);
    }

    @Test
    void movesNothingWhenTheSourceHasTooLittleOrASkuIsUnknown() {
        inventory.setStock(a, 3);
        inventory.setStock(b, 5);

        assertThatThrownBy(() -> transfers.transfer(a, b, 4)).isInstanceOf(OutOfStockException.class);
        assertThatThrownBy(() -> transfers.transfer(a, Skus.unique(), 1)).isInstanceOf(UnknownSkuException.class);
        assertThat(inventory.stock(a)).contains(3L);
        assertThat(inventory.stock(b)).contains(5L);
    }

    @Test
    void transfersInOppositeDirectionsAtOnceNeitherDeadlockNorLoseStock() throws Exception {
        inventory.setStock(a, 1000);
        inventory.setStock(b, 1000);
        ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_EACH_WAY);
        try {
            List<CompletableFuture<Void>> running = new ArrayList<>();
            for (int thread = 0; thread < THREADS_EACH_WAY; thread++) {
                running.add(CompletableFuture.runAsync(() -> repeat(a, b), pool));
                running.add(CompletableFuture.runAsync(() -> repeat(b, a), pool));
            }

            // Every transfer waits at most 2 s for both locks, so a deadlock shows as lock timeouts, which fail the
            // callers at once; the bound on the whole only catches no end. 240 transfers took 3 to 11 s in default
            // builds and more than 45 s beside the full tier's 30 s fuzz runs.
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(3, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        assertThat(inventory.stock(a).orElseThrow() + inventory.stock(b).orElseThrow())
                .isEqualTo(2000);
        assertThat(inventory.stock(a)).contains(1000L);
    }

    private void repeat(String from, String to) {
        for (int i = 0; i < TRANSFERS_EACH_WAY; i++) {
            transfers.transfer(from, to, 1);
        }
    }
}
