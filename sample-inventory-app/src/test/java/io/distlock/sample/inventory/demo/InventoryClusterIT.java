package io.distlock.sample.inventory.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.sample.inventory.Skus;
import io.distlock.test.redis.TestRedis;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three instances of the packaged application, each a separate JVM, against one Redis, under thousands of concurrent
 * orders: the lock keeps the stock right across processes, and without it the same load oversells.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InventoryClusterIT {

    private static final int INSTANCES = 3;
    private static final int STOCK = 100;
    private static final int ORDERS = 3000;
    private static final int CLIENT_THREADS = 32;
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration BURST_TIMEOUT = Duration.ofSeconds(90);

    private static final HttpClient http = InventoryClient.newHttpClient();
    private static final InventoryClient client = new InventoryClient(http);

    private static TestRedis redis;
    private static AppInstances instances;

    @BeforeAll
    static void startInstances() throws Exception {
        Path jar = Path.of(System.getProperty("inventory.app.jar", "target/sample-inventory-app.jar"));
        assertThat(jar)
                .as("the packaged application; run this test with 'mvn verify'")
                .exists();
        redis = TestRedis.start();
        instances = AppInstances.start(
                AppCommand.ofJar(jar),
                INSTANCES,
                List.of("--spring.data.redis.url=" + redis.uri()),
                http,
                STARTUP_TIMEOUT,
                instance -> {});
    }

    @AfterAll
    static void stopInstances() {
        try {
            if (instances != null) {
                instances.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Test
    void lockedOrdersSellExactlyTheStockAcrossProcesses() throws Exception {
        String sku = Skus.unique();
        LoadResult result = burst("/orders", sku);

        assertThat(result.failures())
                .as("orders without an answer: %s", result.firstFailure())
                .isZero();
        assertThat(result.statuses().keySet())
                .as("every answer is a documented one")
                .isSubsetOf(LoadResult.OK, LoadResult.OUT_OF_STOCK, LoadResult.LOCK_TIMEOUT);
        assertThat(result.sold()).isEqualTo(STOCK);
        assertThat(client.stock(anyInstance(), sku)).isZero();
        assertThat(result.count(LoadResult.OUT_OF_STOCK) + result.count(LoadResult.LOCK_TIMEOUT))
                .isEqualTo(ORDERS - STOCK);
    }

    @Test
    void theSameOrdersWithoutTheLockOversell() throws Exception {
        String sku = Skus.unique();
        LoadResult result = burst("/unprotected/orders", sku);

        assertThat(result.failures())
                .as("orders without an answer: %s", result.firstFailure())
                .isZero();
        assertThat(result.statuses().keySet())
                .as("every answer is a documented one")
                .isSubsetOf(LoadResult.OK, LoadResult.OUT_OF_STOCK);
        assertThat(result.sold()).as("units sold from a stock of %d", STOCK).isGreaterThan(STOCK);
    }

    /** Runs the orders and prints the demo's table of them into the test's output, for a look after the fact. */
    private static LoadResult burst(String path, String sku) throws Exception {
        client.setStock(anyInstance(), sku, STOCK);
        LoadResult result = new OrderLoad(client, instances.baseUris(), CLIENT_THREADS)
                .place(path, sku, ORDERS, answered -> {}, BURST_TIMEOUT);
        DemoRun run = new DemoRun(path, INSTANCES + " instances", STOCK, result, client.stock(anyInstance(), sku));
        System.out.println(DemoReport.table(List.of(run)));
        return result;
    }

    private static URI anyInstance() {
        return instances.baseUris().get(0);
    }
}
