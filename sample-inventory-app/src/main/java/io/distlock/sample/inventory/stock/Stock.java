package io.distlock.sample.inventory.stock;

/** The check in the middle of read-check-write. */
final class Stock {

    private Stock() {}

    /**
     * The stock left after taking {@code quantity} units.
     *
     * @throws OutOfStockException if fewer than {@code quantity} units are available
     */
    static long take(String sku, long available, long quantity) {
        if (available < quantity) {
            throw new OutOfStockException(sku, available, quantity);
        }
        return available - quantity;
    }
}
