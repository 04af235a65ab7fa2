package io.distlock.sample.inventory;

import io.distlock.sample.inventory.demo.DemoTarget;
import io.distlock.sample.inventory.demo.StockDeductionDemo;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The inventory service. With {@value #DEMO_OPTION} it does not serve but runs the stock-deduction demo: several
 * instances of itself as separate processes, under concurrent orders, with and without the lock; {@code --demo
 * --cluster} runs them on a Redis Cluster.
 */
@SpringBootApplication
public class InventoryApplication {

    /** The option that runs the demo instead of the service. */
    static final String DEMO_OPTION = "--demo";

    public static void main(String[] args) {
        List<String> arguments = List.of(args);
        if (arguments.contains(DEMO_OPTION)) {
            List<String> demoOptions = arguments.stream()
                    .filter(argument -> !argument.equals(DEMO_OPTION))
                    .toList();
            System.exit(StockDeductionDemo.run(demoOptions, System.out, System.err));
        }
        if (arguments.contains(DemoTarget.CLUSTER_OPTION)) {
            // Spring Boot would take it as an unused property and start on the embedded standalone Redis.
            System.err.println(
                    DemoTarget.CLUSTER_OPTION + " is an option of " + DEMO_OPTION + " (./demo.sh "
                            + DemoTarget.CLUSTER_OPTION + "). To run the service on your own Redis Cluster, set "
                            + "spring.data.redis.cluster.nodes, for example SPRING_DATA_REDIS_CLUSTER_NODES=host:port,host:port.");
            System.exit(2);
        }
        SpringApplication.run(InventoryApplication.class, args);
    }
}
