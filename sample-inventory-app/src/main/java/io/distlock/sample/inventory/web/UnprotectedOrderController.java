package io.distlock.sample.inventory.web;

import io.distlock.sample.inventory.stock.UnprotectedInventoryService;
import io.distlock.sample.inventory.web.OrderController.OrderRequest;
import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The same orders without the lock, to show the race it prevents: only with the {@code demo} profile, so that a copy
 * of the sample never serves an endpoint that oversells.
 */
@RestController
@Profile("demo")
class UnprotectedOrderController {

    private final UnprotectedInventoryService unprotected;

    UnprotectedOrderController(UnprotectedInventoryService unprotected) {
        this.unprotected = unprotected;
    }

    @PostMapping("/unprotected/orders")
    StockLevel orderWithoutLock(@RequestBody OrderRequest request) {
        String sku = RequestChecks.sku("sku", request.sku());
        int quantity = RequestChecks.positive("quantity", request.quantity());
        return new StockLevel(sku, unprotected.deductWithoutLock(sku, quantity));
    }
}
