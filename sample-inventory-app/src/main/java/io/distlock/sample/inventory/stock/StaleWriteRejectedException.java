package io.distlock.sample.inventory.stock;

/**
 * Redis refused a stock read or write because it came with a fencing token older than one it had already seen for the
 * SKU: the caller's lock had expired and a newer holder had taken over. Nothing was written.
 */
public class StaleWriteRejectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sku;
    private final long token;

    StaleWriteRejectedException(String sku, long token, Long newerToken) {
        super("Stock of '" + sku + "' was not written: fencing token " + token + " is older than token " + newerToken
                + " already seen, so this caller's lock had expired and another holder took over");
        this.sku = sku;
        this.token = token;
    }

    public String sku() {
        return sku;
    }

    public long token() {
        return token;
    }
}
