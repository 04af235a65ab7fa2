package io.distlock.sample.inventory.stock;

import io.distlock.DistributedLock;
import io.distlock.LockContext;
import io.distlock.OnLockLost;
import org.springframework.stereotype.Service;

/**
 * Moves units from one SKU to another under both SKUs' locks, taken all or none by {@code @DistributedLock(keys =
 * ...)}. The locks are the ones {@link InventoryService} takes, so transfers and orders of the same SKU exclude each
 * other, and two transfers in opposite directions never deadlock: every caller takes the keys in the same order.
 *
 * <p>The wait of {@value InventoryService#WAIT_SECONDS} seconds is for both keys together. {@link OnLockLost#LOG} for
 * the reason given on {@link InventoryService}: once the fenced writes were accepted, the transfer stands.
 */
@Service
public class StockTransferService {

    private final FencedStockWriter stock;

    public StockTransferService(FencedStockWriter stock) {
        this.stock = stock;
    }

    /**
     * Moves {@code quantity} units of stock from {@code from} to {@code to}, two different SKUs.
     *
     * @throws UnknownSkuException if either SKU was never stocked
     * @throws OutOfStockException if {@code from} has fewer than {@code quantity} units; nothing is moved
     * @throws io.distlock.LockNotAcquiredException if either SKU stayed locked for the whole wait; nothing is moved
     */
    @DistributedLock(
            keys = {"'stock:' + #from", "'stock:' + #to"},
            leaseSeconds = InventoryService.LEASE_SECONDS,
            waitSeconds = InventoryService.WAIT_SECONDS,
            onLost = OnLockLost.LOG)
    public Transfer transfer(String from, String to, int quantity) {
        long fromToken = tokenOf(from);
        long toToken = tokenOf(to);
        long fromStock = stock.readForUpdate(from, fromToken).orElseThrow(() -> new UnknownSkuException(from));
        long toStock = stock.readForUpdate(to, toToken).orElseThrow(() -> new UnknownSkuException(to));
        long fromRemaining = Stock.take(from, fromStock, quantity);
        stock.write(from, fromRemaining, fromToken);
        stock.write(to, toStock + quantity, toToken);
        return new Transfer(from, fromRemaining, to, toStock + quantity);
    }

    /** The fencing token of the SKU's lock, which {@link InventoryService}'s {@code @DistributedLock} takes too. */
    private static long tokenOf(String sku) {
        return LockContext.current("stock:" + sku).orElseThrow().fencingToken();
    }

    /** The stock of both SKUs after a transfer. */
    public record Transfer(String from, long fromStock, String to, long toStock) {}
}
