package io.distlock.sample.inventory.stock;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.LockedCallable;
import io.distlock.LockedExecution;
import io.distlock.OnLockLost;
import java.time.Duration;
import org.springframework.stereotype.Service;

/**
 * Moves units from one SKU to another under both SKUs' locks, taken through the injected {@link Lock} because the keys
 * are only known at run time and there are two of them. The locks are the ones {@link InventoryService} takes, so
 * transfers and orders of the same SKU exclude each other.
 */
@Service
public class StockTransferService {

    static final Lease LEASE = Lease.fixed(Duration.ofSeconds(InventoryService.LEASE_SECONDS));
    static final Duration WAIT = Duration.ofSeconds(InventoryService.WAIT_SECONDS);

    private final Lock lock;
    private final FencedStockWriter stock;

    public StockTransferService(Lock lock, FencedStockWriter stock) {
        this.lock = lock;
        this.stock = stock;
    }

    /**
     * Moves {@code quantity} units of stock from {@code from} to {@code to}, two different SKUs.
     *
     * @throws UnknownSkuException if either SKU was never stocked
     * @throws OutOfStockException if {@code from} has fewer than {@code quantity} units; nothing is moved
     * @throws LockNotAcquiredException if either SKU stayed locked for the whole wait; nothing is moved
     */
    public Transfer transfer(String from, String to, int quantity) {
        // Every transfer takes the two locks in the same (sorted) order, so two transfers in opposite directions
        // never hold one lock each while waiting for the other.
        String first = from.compareTo(to) < 0 ? from : to;
        String second = first.equals(from) ? to : from;
        return underLock(first, () -> underLock(second, () -> move(from, to, quantity)));
    }

    private Transfer move(String from, String to, int quantity) {
        long fromToken = tokenOf(from);
        long toToken = tokenOf(to);
        long fromStock = stock.readForUpdate(from, fromToken).orElseThrow(() -> new UnknownSkuException(from));
        long toStock = stock.readForUpdate(to, toToken).orElseThrow(() -> new UnknownSkuException(to));
        long fromRemaining = Stock.take(from, fromStock, quantity);
        stock.write(from, fromRemaining, fromToken);
        stock.write(to, toStock + quantity, toToken);
        return new Transfer(from, fromRemaining, to, toStock + quantity);
    }

    private <T> T underLock(String sku, LockedCallable<T, RuntimeException> work) {
        LockHandle handle = acquire(lockKey(sku));
        // LOG for the reason given on InventoryService: once the fenced writes were accepted, the transfer stands.
        return LockedExecution.call(handle, OnLockLost.LOG, work);
    }

    private LockHandle acquire(String key) {
        try {
            return lock.tryAcquire(key, LEASE, WAIT).orElseThrow(() -> new LockNotAcquiredException(key, WAIT));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockNotAcquiredException(key, WAIT, e);
        }
    }

    private static long tokenOf(String sku) {
        return LockContext.current(lockKey(sku)).orElseThrow().fencingToken();
    }

    /** The key of {@link InventoryService}'s {@code @DistributedLock}. */
    private static String lockKey(String sku) {
        return "stock:" + sku;
    }

    /** The stock of both SKUs after a transfer. */
    public record Transfer(String from, long fromStock, String to, long toStock) {}
}
