package io.distlock.sample.inventory;

import io.distlock.sample.inventory.demo.StockDeductionDemo;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The inventory service. With {@code --demo} it does not serve but runs the stock-deduction demo: several instances of
 * itself as separate processes, under concurrent orders, with and without the lock.
 */
@SpringBootApplication
public class InventoryApplication {

    public static void main(String[] args) {
        if (Arrays.asList(args).contains("--demo")) {
            System.exit(StockDeductionDemo.run(System.out));
        }
        SpringApplication.run(InventoryApplication.class, args);
    }
}
