package io.distlock.sample.inventory.web;

import io.distlock.sample.inventory.stock.InventoryService;
import io.distlock.sample.inventory.stock.UnprotectedInventoryService;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Places orders, each deducting its quantity from the stock of one SKU. */
@RestController
class OrderController {

    private final InventoryService inventory;
    private final UnprotectedInventoryService unprotected;

    OrderController(InventoryService inventory, UnprotectedInventoryService unprotected) {
        this.inventory = inventory;
        this.unprotected = unprotected;
    }

    @PostMapping("/orders")
    StockLevel order(@RequestBody OrderRequest request) {
        String sku = RequestChecks.sku("sku", request.sku());
        int quantity = RequestChecks.positive("quantity", request.quantity());
        return new StockLevel(sku, inventory.deduct(sku, quantity));
    }

    /** The same order without the lock, to show the race it prevents. */
    @PostMapping("/unprotected/orders")
    StockLevel orderWithoutLock(@RequestBody OrderRequest request) {
        String sku = RequestChecks.sku("sku", request.sku());
        int quantity = RequestChecks.positive("quantity", request.quantity());
        return new StockLevel(sku, unprotected.deductWithoutLock(sku, quantity));
    }

    record OrderRequest(String sku, Integer quantity) {}
}
