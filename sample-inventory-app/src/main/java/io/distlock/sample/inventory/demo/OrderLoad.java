package io.distlock.sample.inventory.demo;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Many orders of one unit each, sent by concurrent client threads, spread round-robin over several instances, as a
 * busy shop's traffic arrives at a load-balanced service.
 */
public final class OrderLoad {

    private static final int INTERRUPTED = -1;

    private final InventoryClient client;
    private final List<URI> instances;
    private final int threads;

    public OrderLoad(InventoryClient client, List<URI> instances, int threads) {
        if (instances.isEmpty() || threads < 1) {
            throw new IllegalArgumentException("need at least one instance and one thread");
        }
        this.client = client;
        this.instances = List.copyOf(instances);
        this.threads = threads;
    }

    /**
     * Sends {@code orders} orders for {@code sku} to {@code path} on the instances and waits for every answer.
     *
     * @param progress told the number of answered orders after each answer, from the client threads
     * @param timeout how long the whole burst may take
     * @throws IllegalStateException if the burst is not over within {@code timeout}
     */
    public LoadResult place(String path, String sku, int orders, IntConsumer progress, Duration timeout)
            throws InterruptedException {
        Tally tally = new Tally();
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        try {
            for (int t = 0; t < threads; t++) {
                pool.execute(() -> {
                    for (int order = next.getAndIncrement(); order < orders; order = next.getAndIncrement()) {
                        int answered = send(instances.get(order % instances.size()), path, sku, tally);
                        if (answered == INTERRUPTED) {
                            return;
                        }
                        progress.accept(answered);
                    }
                });
            }
            pool.shutdown();
            if (!pool.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        "Only " + tally.answered() + " of " + orders + " orders were answered within " + timeout);
            }
        } finally {
            pool.shutdownNow();
        }
        return tally.result(Duration.ofNanos(System.nanoTime() - start));
    }

    /** Sends one order and counts its answer; returns the orders answered so far, or {@link #INTERRUPTED}. */
    private int send(URI instance, String path, String sku, Tally tally) {
        try {
            return tally.answer(client.order(instance, path, sku, 1));
        } catch (IOException e) {
            return tally.failure(instance.resolve(path) + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return INTERRUPTED;
        }
    }

    /** The answers so far, counted from every client thread. */
    private static final class Tally {

        private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        private final AtomicInteger failures = new AtomicInteger();
        private final AtomicReference<String> firstFailure = new AtomicReference<>();
        private final AtomicInteger answered = new AtomicInteger();

        /** Counts an answer; returns the orders answered so far, this one included. */
        int answer(int status) {
            statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
            return answered.incrementAndGet();
        }

        /** Counts an order that got no answer; returns the orders answered so far, this one included. */
        int failure(String description) {
            failures.incrementAndGet();
            firstFailure.compareAndSet(null, description);
            return answered.incrementAndGet();
        }

        int answered() {
            return answered.get();
        }

        LoadResult result(Duration elapsed) {
            Map<Integer, Integer> counts = new TreeMap<>();
            statuses.forEach((status, count) -> counts.put(status, count.get()));
            return new LoadResult(counts, failures.get(), firstFailure.get(), elapsed);
        }
    }
}
