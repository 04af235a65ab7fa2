package io.distlock.sample.inventory.demo;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a burst of orders got back.
 *
 * @param statuses how many orders got each HTTP status
 * @param failures orders that got no HTTP answer at all (connection refused, timeout)
 * @param firstFailure the first such failure, or null if there was none
 * @param elapsed from the first order sent to the last answer
 */
public record LoadResult(Map<Integer, Integer> statuses, int failures, String firstFailure, Duration elapsed) {

    public static final int OK = 200;
    public static final int OUT_OF_STOCK = 409;
    public static final int LOCK_TIMEOUT = 503;

    public LoadResult {
        statuses = Map.copyOf(statuses);
    }

    public int orders() {
        return statuses.values().stream().mapToInt(Integer::intValue).sum() + failures;
    }

    public int count(int status) {
        return statuses.getOrDefault(status, 0);
    }

    public int sold() {
        return count(OK);
    }

    /** Answers other than sold, out of stock and lock timeout, by status. */
    public Map<Integer, Integer> unexpectedStatuses() {
        Map<Integer, Integer> unexpected = new TreeMap<>(statuses);
        unexpected.keySet().removeAll(Set.of(OK, OUT_OF_STOCK, LOCK_TIMEOUT));
        return unexpected;
    }

    public double ordersPerSecond() {
        return orders() / Math.max(elapsed.toNanos() / 1e9, 1e-9);
    }
}
