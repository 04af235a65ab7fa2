package io.distlock.sample.inventory.stock;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;

/**
 * The seed blog posts' {@code deduct()} as it was before the lock: read the stock, check it, write it back. Run by
 * several threads or instances at once, two of them read the same stock and both sell the last unit. It exists only so
 * that the demo and the tests can show that race next to {@link InventoryService#deduct}, with the {@code demo}
 * profile only; never copy it.
 */
@Service
@Profile("demo")
public class UnprotectedInventoryService {

    private final StockStore store;

    public UnprotectedInventoryService(StockStore store) {
        this.store = store;
    }

    /**
     * Takes {@code quantity} units of {@code sku} out of stock, without a lock and without fencing.
     *
     * @return the stock left, as this caller wrote it
     * @throws UnknownSkuException if the SKU was never stocked
     * @throws OutOfStockException if fewer than {@code quantity} units were read
     */
    public long deductWithoutLock(String sku, int quantity) {
        long available = store.read(sku).orElseThrow(() -> new UnknownSkuException(sku));
        long remaining = Stock.take(sku, available, quantity);
        store.overwrite(sku, remaining);
        return remaining;
    }
}
