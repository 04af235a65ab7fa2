package io.distlock.bench;

import io.distlock.bench.redis.RedisTarget;
import io.distlock.bench.report.JsonReport;
import io.distlock.bench.report.MarkdownReport;
import io.distlock.bench.report.ResultsChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the full benchmark and writes {@code results.md}, {@code results.json} and {@code results.png} to the output
 * directory. Exits with status 1 if any contender was caught with two holders at once: such a run measured a broken lock.
 */
public final class BenchmarkMain {

    static final String MARKDOWN_FILE = "results.md";
    static final String CHART_FILE = "results.png";
    static final String JSON_FILE = "results.json";

    private BenchmarkMain() {}

    /**
     * Runs the benchmark with the settings from {@code bench.*} system properties.
     *
     * @param args none
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        BenchmarkSettings settings = BenchmarkSettings.fromSystemProperties();
        BenchmarkResults results;
        try (RedisTarget target = RedisTarget.open(settings.redisUri(), settings.target())) {
            results = new BenchmarkRun(settings, target, System.err::println).run();
        }
        String markdown = write(results);
        System.out.println(markdown);
        System.out.println(
                "Results: " + settings.output().resolve(MARKDOWN_FILE).toAbsolutePath());
        System.out.println("Chart:   " + settings.output().resolve(CHART_FILE).toAbsolutePath());
        if (results.violations() > 0) {
            System.err.println(results.violations() + " mutual-exclusion violations: see 'Correctness' in the results");
            System.exit(1);
        }
        // Client libraries of the harness may leave non-daemon threads behind.
        System.exit(0);
    }

    /**
     * Writes the Markdown results, the same results as JSON and the chart (where the run has scenarios it draws) to the
     * results' output directory.
     *
     * @param results the run's results
     * @return the Markdown text
     * @throws IOException if a file cannot be written
     */
    static String write(BenchmarkResults results) throws IOException {
        Path output = results.settings().output();
        Files.createDirectories(output);
        boolean charted = ResultsChart.write(results, output.resolve(CHART_FILE));
        String commit = Commit.current();
        String markdown = MarkdownReport.render(results, charted ? CHART_FILE : null, commit);
        Files.writeString(output.resolve(MARKDOWN_FILE), markdown, StandardCharsets.UTF_8);
        Files.writeString(output.resolve(JSON_FILE), JsonReport.render(results, commit), StandardCharsets.UTF_8);
        return markdown;
    }
}
