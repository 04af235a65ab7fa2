package io.distlock.sample.inventory.web;

import io.distlock.sample.inventory.stock.InventoryService;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Reads and sets the stock of a SKU. */
@RestController
@RequestMapping("/stock/{sku}")
class StockController {

    private final InventoryService inventory;

    StockController(InventoryService inventory) {
        this.inventory = inventory;
    }

    @GetMapping
    StockLevel stock(@PathVariable String sku) {
        RequestChecks.sku("sku", sku);
        long stock = inventory.stock(sku).orElseThrow(() -> notStocked(sku));
        return new StockLevel(sku, stock);
    }

    @PutMapping
    StockLevel setStock(@PathVariable String sku, @RequestBody StockRequest request) {
        RequestChecks.sku("sku", sku);
        int quantity = RequestChecks.notNegative("quantity", request.quantity());
        return new StockLevel(sku, inventory.setStock(sku, quantity));
    }

    private static ErrorResponseException notStocked(String sku) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.NOT_FOUND, "SKU '" + sku + "' was never stocked; set its stock with PUT /stock/" + sku);
        problem.setType(InventoryProblems.type("unknown-sku"));
        problem.setTitle("Unknown SKU");
        return new ErrorResponseException(HttpStatus.NOT_FOUND, problem, null);
    }

    record StockRequest(Integer quantity) {}
}
