package io.distlock.bench.firstcall;

import io.distlock.DistributedLock;
import java.util.concurrent.atomic.AtomicInteger;

/** The stock-deduction service of the measured application, locked per SKU as users write it. */
public class Stock {

    private final AtomicInteger deducted = new AtomicInteger();

    /**
     * Deducts one unit of a SKU under its lock.
     *
     * @param sku the SKU
     * @return how many units this application has deducted
     */
    @DistributedLock(key = "'stock:' + #sku", leaseSeconds = 10, waitSeconds = 10)
    public int deduct(String sku) {
        return deducted.incrementAndGet();
    }
}
