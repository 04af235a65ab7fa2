package io.distlock.sample.inventory.web;

import io.distlock.sample.inventory.stock.InventoryService;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Places orders, each deducting its quantity from the stock of one SKU. */
@RestController
class OrderController {

    private final InventoryService inventory;

    OrderController(InventoryService inventory) {
        this.inventory = inventory;
    }

    @PostMapping("/orders")
    StockLevel order(@RequestBody OrderRequest request) {
        String sku = RequestChecks.sku("sku", request.sku());
        int quantity = RequestChecks.positive("quantity", request.quantity());
        return new StockLevel(sku, inventory.deduct(sku, quantity));
    }

    record OrderRequest(String sku, Integer quantity) {}
}
