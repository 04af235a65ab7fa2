package io.distlock.sample.inventory;

import java.util.UUID;

/** SKUs no other test uses, so tests can share one Redis without cleaning it. */
public final class Skus {

    private Skus() {}

    public static String unique() {
        return "sku-" + UUID.randomUUID();
    }
}
