package io.distlock.sample.inventory.stock;

/** An order or transfer named a SKU that was never stocked. */
public class UnknownSkuException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sku;

    UnknownSkuException(String sku) {
        super("Unknown SKU '" + sku + "': set its stock first with PUT /stock/" + sku);
        this.sku = sku;
    }

    public String sku() {
        return sku;
    }
}
