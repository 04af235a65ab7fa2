package io.distlock.sample.inventory.web;

import io.distlock.sample.inventory.stock.StockTransferService;
import io.distlock.sample.inventory.stock.StockTransferService.Transfer;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Moves stock from one SKU to another. */
@RestController
class TransferController {

    private final StockTransferService transfers;

    TransferController(StockTransferService transfers) {
        this.transfers = transfers;
    }

    @PostMapping("/transfers")
    TransferResult transfer(@RequestBody TransferRequest request) {
        String from = RequestChecks.sku("from", request.from());
        String to = RequestChecks.sku("to", request.to());
        int quantity = RequestChecks.positive("quantity", request.quantity());
        if (from.equals(to)) {
            throw new InvalidRequestException("from and to must be different SKUs, but both were \"" + from + "\"");
        }
        Transfer done = transfers.transfer(from, to, quantity);
        return new TransferResult(
                new StockLevel(done.from(), done.fromStock()), new StockLevel(done.to(), done.toStock()));
    }

    record TransferRequest(String from, String to, Integer quantity) {}

    record TransferResult(StockLevel from, StockLevel to) {}
}
