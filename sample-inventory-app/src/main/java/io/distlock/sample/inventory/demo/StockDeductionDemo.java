package io.distlock.sample.inventory.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The stock-deduction scenario end to end: {@value #INSTANCES} instances of the inventory service as separate JVMs
 * share one Redis (or, with {@value DemoTarget#CLUSTER_OPTION}, one Redis Cluster) and get {@value #ORDERS} concurrent
 * orders of one unit for a stock of {@value #INITIAL_STOCK}, first through the locked endpoint, then through its
 * unprotected twin, and a table compares the two.
 */
public final class StockDeductionDemo {

    static final int INSTANCES = 3;
    static final int INITIAL_STOCK = 100;
    static final int ORDERS = 2000;
    static final int CLIENT_THREADS = 32;
    static final String SKU = "demo-widget";
    static final int WARM_UP_ORDERS = 300;
    static final String WARM_UP_SKU = "demo-warm-up";

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration BURST_TIMEOUT = Duration.ofSeconds(60);
    private static final int PROGRESS_STEP = ORDERS / 4;

    /** The exit code of a demo that could not run, from a wrong option to an instance that did not start. */
    static final int FAILED = 2;

    private final PrintStream out;
    private final DemoTarget target;
    private final HttpClient http = InventoryClient.newHttpClient();
    private final InventoryClient client = new InventoryClient(http);

    private StockDeductionDemo(PrintStream out, DemoTarget target) {
        this.out = out;
        this.target = target;
    }

    /**
     * Runs the demo, printing its progress and results.
     *
     * @param options the command-line arguments after {@code --demo}: none, or {@value DemoTarget#CLUSTER_OPTION}
     * @param out where progress and results go
     * @param err where a wrong option is reported
     * @return the process exit code: 0 if the locked endpoint sold exactly the stock, 1 if not, 2 if the demo failed
     *     or an option was wrong
     */
    public static int run(List<String> options, PrintStream out, PrintStream err) {
        DemoTarget target;
        try {
            target = DemoTarget.fromOptions(options);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return FAILED;
        }
        try {
            return new StockDeductionDemo(out, target).run() ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("Interrupted.");
            return FAILED;
        } catch (IOException | RuntimeException e) {
            out.println();
            out.println("The demo failed: " + e.getMessage());
            return FAILED;
        }
    }

    private boolean run() throws IOException, InterruptedException {
        introduce();
        try (DemoRedis redis = target.start()) {
            // Ctrl-C skips the close at the end of this block; a redis-server left running would outlive the demo.
            Runtime.getRuntime().addShutdownHook(new Thread(redis::close, "stop-demo-redis"));
            out.println("[redis] " + redis.description() + ", only for this demo");
            out.println("[start] starting " + INSTANCES + " instances, each a separate JVM...");
            try (AppInstances instances = AppInstances.start(
                    AppCommand.ofThisJvm(), INSTANCES, redis.instanceArguments(), http, STARTUP_TIMEOUT, this::ready)) {
                List<URI> uris = instances.baseUris();
                warmUp(uris);
                DemoRun locked = burst(1, uris, "/orders", "@DistributedLock");
                DemoRun unprotected = burst(2, uris, "/unprotected/orders", "no lock");
                report(List.of(locked, unprotected));
                return locked.isCorrect();
            }
        }
    }

    private void introduce() {
        out.print("""
                distlock demo: stock deduction across processes
                ================================================
                The inventory service reads the stock, checks it and writes it back. %d instances of it, each
                its own JVM, share one Redis and get %d concurrent orders (%d client threads, round-robin over
                the instances) for %d units: first with the lock, then without.
                """.formatted(INSTANCES, ORDERS, CLIENT_THREADS, INITIAL_STOCK));
        target.introduction().ifPresent(out::println);
        out.println();
    }

    private void ready(AppInstance instance) {
        out.printf(
                Locale.ROOT,
                "[start] %s ready at %s (pid %d) after %.1f s%n",
                instance.name(),
                instance.baseUri(),
                instance.pid(),
                instance.sinceStart().toMillis() / 1000.0);
    }

    /** Both runs then meet JVMs that have compiled the code they run, so their throughput compares fairly. */
    private void warmUp(List<URI> instances) throws IOException, InterruptedException {
        out.println("[warm-up] " + WARM_UP_ORDERS + " orders through each endpoint, for a fair throughput comparison");
        client.setStock(instances.get(0), WARM_UP_SKU, 2L * WARM_UP_ORDERS);
        OrderLoad load = new OrderLoad(client, instances, CLIENT_THREADS);
        for (String endpoint : List.of("/orders", "/unprotected/orders")) {
            load.place(endpoint, WARM_UP_SKU, WARM_UP_ORDERS, answered -> {}, BURST_TIMEOUT);
        }
    }

    private DemoRun burst(int number, List<URI> instances, String endpoint, String protection)
            throws IOException, InterruptedException {
        String tag = "[run " + number + "/2]";
        client.setStock(instances.get(0), SKU, INITIAL_STOCK);
        out.println(tag + " POST " + endpoint + " (" + protection + "): stock of " + SKU + " set to " + INITIAL_STOCK
                + ", " + ORDERS + " orders...");
        LoadResult result = new OrderLoad(client, instances, CLIENT_THREADS)
                .place(
                        endpoint,
                        SKU,
                        ORDERS,
                        answered -> {
                            if (answered % PROGRESS_STEP == 0) {
                                out.println(tag + "   " + answered + "/" + ORDERS + " orders answered");
                            }
                        },
                        BURST_TIMEOUT);
        return new DemoRun(endpoint, protection, INITIAL_STOCK, result, client.stock(instances.get(0), SKU));
    }

    private void report(List<DemoRun> runs) {
        out.println();
        out.print(DemoReport.table(runs));
        out.println();
        DemoRun locked = runs.get(0);
        DemoRun unprotected = runs.get(1);
        if (locked.isCorrect()) {
            out.println("With the lock:    sold exactly " + locked.result().sold() + " of " + INITIAL_STOCK
                    + ", 0 oversold. Each order read the stock the previous one left, whichever process it ran in.");
        } else {
            out.println(
                    "With the lock:    NOT as expected: sold " + locked.result().sold() + " of " + INITIAL_STOCK
                            + " and left " + locked.finalStock() + " in stock; see the table.");
        }
        if (unprotected.oversold() > 0) {
            out.println("Without the lock: sold " + unprotected.result().sold() + " of " + INITIAL_STOCK + ", "
                    + unprotected.oversold() + " oversold. Instances read the same stock and overwrote each "
                    + "other's deductions.");
        } else {
            out.println("Without the lock: this time the race did not oversell (" + unprotected.lostUpdates()
                    + " lost updates); run the demo again to see it.");
        }
    }
}
