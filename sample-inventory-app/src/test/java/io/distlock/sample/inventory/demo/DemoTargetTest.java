package io.distlock.sample.inventory.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.LockBackendException;
import io.distlock.sample.inventory.InventoryApplication;
import io.distlock.sample.inventory.Skus;
import io.distlock.sample.inventory.stock.InventoryService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;

/** The demo's options, and the embedded Redis Cluster that {@code --cluster} gives the instances. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DemoTargetTest {

    @Test
    void withoutOptionsTheInstancesShareOneRedisAndWithClusterARedisCluster() {
        assertThat(DemoTarget.fromOptions(List.of())).isEqualTo(DemoTarget.STANDALONE);
        assertThat(DemoTarget.fromOptions(List.of("--cluster"))).isEqualTo(DemoTarget.CLUSTER);
    }

    @Test
    void anUnknownOptionIsNamedWithTheAllowedOnes() {
        assertThatThrownBy(() -> DemoTarget.fromOptions(List.of("--cluster", "--clusters")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Unknown option '--clusters' for --demo. Allowed: --cluster (");
    }

    @Test
    void theDemoStopsBeforeStartingAnythingWhenAnOptionIsWrong() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exitCode = StockDeductionDemo.run(List.of("--fast"), print(out), print(err));

        assertThat(exitCode).isEqualTo(StockDeductionDemo.FAILED);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'--fast'", "Allowed: --cluster");
    }

    @Test
    void theClusterServesTheServiceOnEveryMasterAndStopsWithTheDemo() throws Exception {
        List<String> nodes;
        try (DemoRedis redis = DemoTarget.CLUSTER.start()) {
            assertThat(redis.description()).startsWith("embedded Redis Cluster of 3 masters started at 127.0.0.1:");
            try (ConfigurableApplicationContext app = new SpringApplicationBuilder(InventoryApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(redis.instanceArguments().toArray(String[]::new))) {
                DataRedisConnectionDetails.Cluster cluster =
                        app.getBean(DataRedisConnectionDetails.class).getCluster();
                assertThat(cluster).as("the instance connects in cluster mode").isNotNull();
                nodes = cluster.getNodes().stream()
                        .map(node -> node.host() + ":" + node.port())
                        .toList();
                assertThat(nodes).hasSize(DemoTarget.CLUSTER_MASTERS);

                // The instance's first script also learns the cluster's topology and connects to its masters: with
                // the build's other tests beside it, that outlasted the lock's wait once (a LockBackendException
                // after 1,977 ms). How fast an instance first connects is not what this test checks.
                InventoryService inventory = app.getBean(InventoryService.class);
                String first = Skus.unique();
                await().atMost(Duration.ofSeconds(30))
                        .ignoreException(LockBackendException.class)
                        .untilAsserted(() -> inventory.setStock(first, 5));

                // Enough SKUs that their locks and stock keys land on every master.
                for (int i = 0; i < 30; i++) {
                    String sku = Skus.unique();
                    inventory.setStock(sku, 5);
                    assertThat(inventory.deduct(sku, 2)).isEqualTo(3);
                    assertThat(inventory.stock(sku)).contains(3L);
                }
            }
        }
        for (String node : nodes) {
            assertThatThrownBy(() -> connect(node)).as(node).isInstanceOf(IOException.class);
        }
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static void connect(String node) throws IOException {
        int colon = node.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(
                    new InetSocketAddress(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1))), 1000);
        }
    }
}
