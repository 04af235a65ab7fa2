package io.distlock.sample.inventory.demo;

/**
 * One burst of orders against one endpoint and what it left behind.
 *
 * @param endpoint the path the orders went to
 * @param protection how that endpoint protects the stock, for the report's heading
 * @param initialStock the stock before the burst
 * @param result the answers
 * @param finalStock the stock in Redis after the burst
 */
public record DemoRun(String endpoint, String protection, long initialStock, LoadResult result, long finalStock) {

    /** Units sold beyond the stock there was. */
    public long oversold() {
        return Math.max(0, result.sold() - initialStock);
    }

    /** Deductions that a concurrent write overwrote: sold units that the final stock does not account for. */
    public long lostUpdates() {
        return result.sold() + finalStock - initialStock;
    }

    /** Sold exactly the initial stock, never more, and the stock in Redis says so. */
    public boolean isCorrect() {
        return result.sold() == initialStock
                && finalStock == 0
                && result.unexpectedStatuses().isEmpty()
                && result.failures() == 0;
    }
}
