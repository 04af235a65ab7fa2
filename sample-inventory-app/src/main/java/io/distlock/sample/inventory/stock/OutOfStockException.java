package io.distlock.sample.inventory.stock;

/** There are fewer units of a SKU than were asked for; nothing was deducted. */
public class OutOfStockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sku;
    private final long available;
    private final long requested;

    OutOfStockException(String sku, long available, long requested) {
        super("Only " + available + " of '" + sku + "' in stock, " + requested + " requested");
        this.sku = sku;
        this.available = available;
        this.requested = requested;
    }

    public String sku() {
        return sku;
    }

    public long available() {
        return available;
    }

    public long requested() {
        return requested;
    }
}
