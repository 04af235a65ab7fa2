package io.distlock.sample.inventory.stock;

import io.distlock.DistributedLock;
import io.distlock.LockContext;
import io.distlock.OnLockLost;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Stock changes of one SKU at a time, each under the distributed lock {@code stock:<sku>}, so that instances never
 * interleave their read-check-write of the same SKU.
 *
 * <p>The lease is fixed, so a paused or crashed instance frees the SKU after {@value #LEASE_SECONDS} seconds; the
 * fencing token of the hold goes with every read and write, so such an instance cannot write when it wakes up. A
 * caller that finds the SKU locked for {@value #WAIT_SECONDS} seconds gets {@link io.distlock.LockNotAcquiredException}.
 *
 * <p>A lock lost after the method returned is only logged ({@link OnLockLost#LOG}): the method's fenced write was
 * accepted, which proves that no newer holder had read the stock before it, so the change stands and reporting it as
 * failed would mislead the caller.
 */
@Service
public class InventoryService {

    static final long LEASE_SECONDS = 10;
    static final long WAIT_SECONDS = 2;

    private final FencedStockWriter stock;
    private final StockStore store;

    public InventoryService(FencedStockWriter stock, StockStore store) {
        this.stock = stock;
        this.store = store;
    }

    /**
     * Takes {@code quantity} units of {@code sku} out of stock.
     *
     * @return the stock left
     * @throws UnknownSkuException if the SKU was never stocked
     * @throws OutOfStockException if fewer than {@code quantity} units are left; nothing is deducted
     */
    @DistributedLock(
            key = "'stock:' + #sku",
            leaseSeconds = LEASE_SECONDS,
            waitSeconds = WAIT_SECONDS,
            onLost = OnLockLost.LOG)
    public long deduct(String sku, int quantity) {
        long token = LockContext.current().orElseThrow().fencingToken();
        long available = stock.readForUpdate(sku, token).orElseThrow(() -> new UnknownSkuException(sku));
        long remaining = Stock.take(sku, available, quantity);
        stock.write(sku, remaining, token);
        return remaining;
    }

    /**
     * Sets the stock of {@code sku}, stocking it if it is new.
     *
     * @return the stock now
     */
    @DistributedLock(
            key = "'stock:' + #sku",
            leaseSeconds = LEASE_SECONDS,
            waitSeconds = WAIT_SECONDS,
            onLost = OnLockLost.LOG)
    public long setStock(String sku, long quantity) {
        stock.write(sku, quantity, LockContext.current().orElseThrow().fencingToken());
        return quantity;
    }

    /** The stock of {@code sku} as last written, or empty if it was never stocked. Reading needs no lock. */
    public Optional<Long> stock(String sku) {
        return store.read(sku);
    }
}
