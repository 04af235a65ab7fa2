package io.distlock.sample.inventory.stock;

/**
 * Names of the Redis keys that hold one SKU's stock. Both keys of a SKU share the hash tag {@code {sku}}, so the fenced
 * write script, which touches both, also runs on Redis Cluster.
 */
final class StockKeys {

    private StockKeys() {}

    static String stock(String sku) {
        return "inventory:{" + sku + "}:stock";
    }

    static String fence(String sku) {
        return "inventory:{" + sku + "}:fence";
    }
}
