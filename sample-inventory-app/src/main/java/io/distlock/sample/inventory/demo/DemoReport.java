package io.distlock.sample.inventory.demo;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The table that compares the demo's runs side by side. */
final class DemoReport {

    private static final String ROW = "%-32s";
    private static final String CELL = "%26s";

    private DemoReport() {}

    static String table(List<DemoRun> runs) {
        StringBuilder table = new StringBuilder();
        row(table, "", runs, run -> "POST " + run.endpoint());
        row(table, "", runs, DemoRun::protection);
        row(table, "orders placed", runs, run -> run.result().orders());
        row(table, "sold (200)", runs, run -> run.result().sold());
        row(table, "rejected: out of stock (409)", runs, run -> run.result().count(LoadResult.OUT_OF_STOCK));
        row(table, "rejected: lock timeout (503)", runs, run -> run.result().count(LoadResult.LOCK_TIMEOUT));
        row(table, "other answers or no answer", runs, DemoReport::others);
        row(table, "initial stock", runs, DemoRun::initialStock);
        row(table, "final stock in Redis", runs, DemoRun::finalStock);
        row(table, "oversold units", runs, DemoRun::oversold);
        row(table, "lost updates", runs, DemoRun::lostUpdates);
        row(table, "throughput (orders/s)", runs, run -> Math.round(run.result().ordersPerSecond()));
        row(
                table,
                "time",
                runs,
                run -> String.format(
                        Locale.ROOT, "%.1f s", run.result().elapsed().toMillis() / 1000.0));
        return table.toString();
    }

    private static String others(DemoRun run) {
        LoadResult result = run.result();
        int others = result.unexpectedStatuses().values().stream()
                .mapToInt(Integer::intValue)
                .sum();
        return others + result.failures() == 0
                ? "0"
                : others + result.failures() + " " + result.unexpectedStatuses() + " no answer: " + result.failures();
    }

    private static void row(StringBuilder table, String label, List<DemoRun> runs, Function<DemoRun, Object> cell) {
        table.append(String.format(Locale.ROOT, ROW, label));
        for (DemoRun run : runs) {
            table.append(String.format(Locale.ROOT, CELL, cell.apply(run)));
        }
        table.append(System.lineSeparator());
    }
}
