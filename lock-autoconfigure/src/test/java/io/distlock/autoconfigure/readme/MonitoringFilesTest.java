package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard and the Prometheus alert rules under docs/operations/monitoring ask only for series that
 * distlock's meters produce: every {@code distlock_*} name they use, and every label value they match on, appears in
 * a Prometheus scrape of the meters after every event.
 */
class MonitoringFilesTest {

    private static final Pattern SERIES = Pattern.compile("\\b(distlock_[a-z_]+)(\\{([^}]*)\\})?");
    private static final Pattern MATCHER = Pattern.compile("(\\w+)=\"([^\"$.*]+)\"");

    private static String scrape;
    private static Path monitoring;

    @BeforeAll
    static void scrapeEveryMeter() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EveryMeterEvent.recordInto(registry, any -> scrape = registry.scrape());
        monitoring = ReadmeSnippets.readme()
                .resolveSibling("docs")
                .resolve("operations")
                .resolve("monitoring");
    }

    @Test
    void theDashboardAsksOnlyForSeriesTheMetersProduce() throws IOException {
        String dashboard = Files.readString(monitoring.resolve("distlock-dashboard.json"));
        List<String> expressions = JsonPath.read(dashboard, "$.panels[*].targets[*].expr");

        assertThat(expressions).hasSizeGreaterThanOrEqualTo(8);
        assertThat(unknownSeries(String.join("\n", expressions))).isEmpty();
    }

    @Test
    void theAlertRulesAskOnlyForSeriesTheMetersProduce() throws IOException {
        String rules = Files.readString(monitoring.resolve("distlock-alerts.yml"));

        assertThat(rules).contains("alert: DistlockLockLost", "alert: DistlockRenewalsFailing");
        assertThat(unknownSeries(rules)).isEmpty();
    }

    /** The series and label matchers of the text that no line of the scrape has. */
    private static List<String> unknownSeries(String text) {
        List<String> unknown = new ArrayList<>();
        Matcher series = SERIES.matcher(text);
        int found = 0;
        while (series.find()) {
            found++;
            String name = series.group(1);
            if (!scrape.contains("\n" + name + "{") && !scrape.contains("\n" + name + " ")) {
                unknown.add(name);
                continue;
            }
            if (series.group(3) != null) {
                Matcher label = MATCHER.matcher(series.group(3));
                while (label.find()) {
                    String wanted = label.group(1) + "=\"" + label.group(2) + "\"";
                    boolean present =
                            scrape.lines().anyMatch(line -> line.startsWith(name + "{") && line.contains(wanted));
                    if (!present) {
                        unknown.add(name + "{" + wanted + "}");
                    }
                }
            }
        }
        assertThat(found).as("distlock series named").isPositive();
        return unknown;
    }
}
