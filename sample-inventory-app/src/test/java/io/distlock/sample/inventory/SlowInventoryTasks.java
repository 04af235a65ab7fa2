package io.distlock.sample.inventory;

import io.distlock.DistributedLock;
import io.distlock.LockContext;
import io.distlock.sample.inventory.stock.FencedStockWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A deduction that pauses between its read and its write for longer than its one-second lease, like an instance
 * stuck in a long GC pause: the test-only way to make a lock run out under a holder that is still working.
 */
@TestConfiguration(proxyBeanMethods = false)
public class SlowInventoryTasks {

    @Bean
    SlowDeduction slowDeduction(FencedStockWriter stock) {
        return new SlowDeduction(stock);
    }

    public static class SlowDeduction {

        private final FencedStockWriter stock;

        SlowDeduction(FencedStockWriter stock) {
            this.stock = stock;
        }

        /**
         * Reads the stock, signals {@code readDone}, pauses, then writes the stock less {@code quantity}.
         *
         * @return the stock written
         */
        @DistributedLock(key = "'stock:' + #sku", leaseSeconds = 1, waitSeconds = 5)
        public long deductAfterPause(String sku, int quantity, Duration pause, CountDownLatch readDone)
                throws InterruptedException {
            long token = LockContext.current().orElseThrow().fencingToken();
            long available = stock.readForUpdate(sku, token).orElseThrow();
            readDone.countDown();
            Thread.sleep(pause.toMillis());
            stock.write(sku, available - quantity, token);
            return available - quantity;
        }
    }
}
