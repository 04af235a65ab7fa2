package io.distlock.bench.report;

import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.Measurement;
import io.distlock.bench.Scenario;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.contender.ContenderKind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;

/** Draws the medians of every scenario as bar charts, up to six panels in one PNG. */
public final class ResultsChart {

    private static final int WIDTH = 760;
    private static final int HEIGHT = 440;

    /** Bar labels of rates: whole numbers. */
    private static final String WHOLE = "#,##0";
    /** Bar labels of latencies and command counts: small numbers that need their decimals. */
    private static final String DECIMALS = "#,##0.##";

    private static final String HELD_AXIS = "locks held in the tree";

    private ResultsChart() {}

    /**
     * Draws the chart of the scenarios it has panels for (1 to 5 and 7).
     *
     * @param results the run's results
     * @param file the PNG file to write
     * @return false if the run had none of them, so that no chart was drawn
     * @throws IOException if the file cannot be written
     */
    public static boolean write(BenchmarkResults results, Path file) throws IOException {
        List<CategoryChart> panels = new ArrayList<>();
        results.of(Scenario.UNCONTENDED).ifPresent(s -> {
            CategoryChart chart = chart("1. Uncontended lock+unlock latency", "µs (log scale)", true, DECIMALS);
            series(chart, "p50", s, m -> m.cycleMicros(50).median());
            series(chart, "p99", s, m -> m.cycleMicros(99).median());
            panels.add(chart);
        });
        results.of(Scenario.PARALLEL).ifPresent(s -> {
            CategoryChart chart = chart("2. Parallel lock+unlock, distinct keys", "operations/s", false, WHOLE);
            series(chart, "operations/s", s, m -> m.perSecond().median());
            panels.add(chart);
        });
        Optional<ScenarioResults> oneJvm = results.of(Scenario.CONTENDED);
        Optional<ScenarioResults> processes = results.of(Scenario.CONTENDED_PROCESSES);
        if (oneJvm.isPresent() || processes.isPresent()) {
            panels.add(contended(
                    chart("3+4. Contended acquisitions per second", "acquisitions/s", false, WHOLE),
                    oneJvm,
                    processes,
                    m -> m.perSecond().median()));
            panels.add(contended(
                    chart("3+4. Contended acquire latency p50", "ms (log scale)", true, DECIMALS),
                    oneJvm,
                    processes,
                    m -> m.acquireMillis(50).median()));
            panels.add(contended(
                    chart("3+4. Contended acquire latency p99", "ms (log scale)", true, DECIMALS),
                    oneJvm,
                    processes,
                    m -> m.acquireMillis(99).median()));
            panels.add(contended(
                    chart("6. Redis calls per acquisition (incl. in scripts)", "calls", false, DECIMALS),
                    oneJvm,
                    processes,
                    m -> !m.kind().isOtherBackend(),
                    m -> m.commandsPerAcquisition().median()));
        }
        results.of(Scenario.READ_HEAVY_PROCESSES).ifPresent(s -> {
            CategoryChart chart =
                    chart("5. Read-heavy operations per second, across JVMs", "operations/s", false, WHOLE);
            series(chart, "operations/s", s, m -> m.perSecond().median());
            panels.add(chart);
        });
        List<ScenarioResults> pathRounds = results.rounds(Scenario.PATH_AMONG_HELD);
        if (!pathRounds.isEmpty()) {
            panels.add(amongHeld(chart("7. Path acquire p50", "µs (log scale)", true, DECIMALS), pathRounds, 50));
            panels.add(amongHeld(chart("7. Path acquire p99", "µs (log scale)", true, DECIMALS), pathRounds, 99));
            if (pathRounds.stream().allMatch(ResultsChart::hasBothPathLocks)) {
                panels.add(seedOverDistlock(pathRounds));
            }
        }
        // A scenario whose contenders all failed to start leaves panels without bars, which XChart cannot draw.
        panels.removeIf(panel -> panel.getSeriesMap().isEmpty());
        if (panels.isEmpty()) {
            return false;
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            // XChart fills every cell of the grid, so an odd number of panels goes in one column.
            int columns = panels.size() % 2 == 0 ? 2 : 1;
            BitmapEncoder.saveBitmap(panels, (panels.size() + columns - 1) / columns, columns, out, BitmapFormat.PNG);
        }
        return true;
    }

    private static CategoryChart contended(
            CategoryChart chart,
            Optional<ScenarioResults> oneJvm,
            Optional<ScenarioResults> processes,
            ToDoubleFunction<Measurement> figure) {
        return contended(chart, oneJvm, processes, m -> true, figure);
    }

    /** The contended panel of the contenders {@code shown} selects: a Redis figure means nothing for other backends. */
    private static CategoryChart contended(
            CategoryChart chart,
            Optional<ScenarioResults> oneJvm,
            Optional<ScenarioResults> processes,
            Predicate<Measurement> shown,
            ToDoubleFunction<Measurement> figure) {
        // XChart draws the series of one chart over the same categories, so a contender that runs in only one of the
        // two scenarios (a Redlock, in 4 only) is left out of these panels when both ran; the tables have it.
        Predicate<Measurement> inBoth = shown.and(m -> oneJvm.isEmpty()
                || processes.isEmpty()
                || (oneJvm.get().of(m.kind()).isPresent()
                        && processes.get().of(m.kind()).isPresent()));
        oneJvm.ifPresent(s -> series(chart, "scenario 3, one JVM", s, inBoth, figure));
        processes.ifPresent(s -> series(chart, "scenario 4, across JVMs", s, inBoth, figure));
        return chart;
    }

    /** One series per contender over the rounds' numbers of held locks, where the other panels have contenders. */
    private static CategoryChart amongHeld(CategoryChart chart, List<ScenarioResults> rounds, double percentile) {
        chart.setXAxisTitle(HELD_AXIS);
        List<String> held =
                rounds.stream().map(round -> Numbers.count(round.held())).toList();
        for (Measurement first : rounds.get(0).measurements()) {
            List<Double> micros = rounds.stream()
                    .map(round -> round.of(first.kind())
                            .map(m -> m.acquireMillis(percentile).median() * 1000)
                            .orElse(null))
                    .toList();
            addSeries(chart, first.kind().label(), held, micros);
        }
        return chart;
    }

    private static boolean hasBothPathLocks(ScenarioResults round) {
        return round.of(ContenderKind.SEED_FOLDER).isPresent()
                && round.of(ContenderKind.DISTLOCK_PATH).isPresent();
    }

    private static CategoryChart seedOverDistlock(List<ScenarioResults> rounds) {
        CategoryChart chart =
                chart("7. Seed folder lock's acquire time over distlock's", "times (log scale)", true, DECIMALS);
        chart.setXAxisTitle(HELD_AXIS);
        List<String> held =
                rounds.stream().map(round -> Numbers.count(round.held())).toList();
        for (double percentile : new double[] {50, 99}) {
            List<Double> ratios = rounds.stream()
                    .map(round -> PairedRatio.of(
                                    round.of(ContenderKind.SEED_FOLDER).orElseThrow(),
                                    round.of(ContenderKind.DISTLOCK_PATH).orElseThrow(),
                                    PairedRatio.acquireMicros(percentile))
                            .median())
                    .toList();
            addSeries(chart, String.format(Locale.ROOT, "p%.0f, paired trials", percentile), held, ratios);
        }
        return chart;
    }

    private static CategoryChart chart(String title, String yAxis, boolean logarithmic, String labelPattern) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .yAxisTitle(yAxis)
                .build();
        chart.getStyler().setYAxisLogarithmic(logarithmic);
        chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setDecimalPattern(labelPattern);
        chart.getStyler().setXAxisLabelRotation(15);
        chart.getStyler().setYAxisDecimalPattern(labelPattern);
        return chart;
    }

    private static void series(
            CategoryChart chart, String name, ScenarioResults s, ToDoubleFunction<Measurement> figure) {
        series(chart, name, s, m -> true, figure);
    }

    private static void series(
            CategoryChart chart,
            String name,
            ScenarioResults s,
            Predicate<Measurement> shown,
            ToDoubleFunction<Measurement> figure) {
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (Measurement m : s.measurements().stream().filter(shown).toList()) {
            labels.add(m.kind().label());
            values.add(figure.applyAsDouble(m));
        }
        addSeries(chart, name, labels, values);
    }

    /** Adds a series; a missing value, or one a logarithmic axis cannot show, is left without a bar. */
    private static void addSeries(CategoryChart chart, String name, List<String> labels, List<Double> values) {
        boolean logarithmic = chart.getStyler().isYAxisLogarithmic();
        List<Double> shown = values.stream()
                .map(v -> v == null || (logarithmic && v <= 0) ? null : v)
                .toList();
        if (shown.stream().allMatch(v -> v == null)) {
            return;
        }
        chart.addSeries(name, labels, shown);
        if (logarithmic) {
            // Bars start at zero, which a logarithmic axis cannot show; start it below the smallest bar instead.
            double smallest = shown.stream()
                    .filter(v -> v != null)
                    .mapToDouble(Double::doubleValue)
                    .filter(v -> v > 0)
                    .min()
                    .orElse(1);
            Double current = chart.getStyler().getYAxisMin();
            chart.getStyler().setYAxisMin(Math.min(current == null ? Double.MAX_VALUE : current, smallest / 2));
        }
    }
}
