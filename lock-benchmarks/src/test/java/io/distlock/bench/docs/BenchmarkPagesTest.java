package io.distlock.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation's benchmark figures come from the runs' {@code results.json}: every benchmark table is what
 * {@link BenchmarkTables} generates from its definition, and no page quotes a measured figure by hand. The test fails
 * when a page differs from its runs; {@code -Ddocs.write=true} writes the tables instead.
 */
class BenchmarkPagesTest {

    /**
     * Measured figures as pages write them: a ratio ({@code 1.63x}), a rate ({@code 6,415/s}, {@code 3,508 against
     * 3,063 acquisitions per second}), or a time with decimals or thousands ({@code 5.65 ms}, {@code 3,402 µs}).
     * Settings such as {@code 50 ms sleeps} or {@code 16 threads} are not caught.
     */
    static final Pattern MEASURED = Pattern.compile("\\b\\d+(\\.\\d+)?x\\b"
            + "|\\d[\\d,]*(\\.\\d+)?\\s?/s\\b"
            + "|\\d[\\d,]*(\\.\\d+)? (acquisitions|operations|locks|permits) (per|a) second"
            + "|\\b\\d+(\\.\\d+|,\\d{3})\\s?(ms|µs)\\b");

    /**
     * Opens a passage that quotes figures measured outside the benchmark: a one-off measurement of a cost the
     * benchmark does not run, which names its own date, commit and how it was taken. The comment says what it measured.
     */
    static final String ELSEWHERE = "<!-- measured outside the benchmark: ";

    /** Closes such a passage. */
    static final String END_OF_ELSEWHERE = "<!-- end of measured outside the benchmark -->";

    @Test
    void everyBenchmarkTableIsWhatItsRunGives() throws IOException {
        List<Path> pages = pages();
        int tables = 0;
        for (Path page : pages) {
            String text = Files.readString(page);
            if (!text.contains(BenchmarkTables.BEGIN)) {
                continue;
            }
            tables += count(text, BenchmarkTables.BEGIN);
            String generated = BenchmarkTables.generate(page, text);
            if (Boolean.getBoolean("docs.write") && !generated.equals(text)) {
                Files.writeString(page, generated);
                continue;
            }
            assertThat(text)
                    .as("the benchmark tables of %s; write them with -Ddocs.write=true", page)
                    .isEqualTo(generated);
        }
        assertThat(tables).as("benchmark tables in the documentation").isPositive();
    }

    @Test
    void noPageQuotesAMeasuredFigureByHand() throws IOException {
        Path root = root();
        List<String> quoted = new ArrayList<>();
        for (Path page : pages()) {
            String name = root.relativize(page).toString().replace('\\', '/');
            if (name.endsWith("results.md")) {
                continue;
            }
            quoted.addAll(handWritten(name, Files.readAllLines(page)));
        }
        assertThat(quoted)
                .as("figures written by hand; put them in a benchmark table generated from the run's results.json")
                .isEmpty();
    }

    @Test
    void aHandWrittenFigureIsFound() {
        List<String> page = List.of(
                "distlock served 1.63x the best peer's acquisitions, 6,415/s, with a p99 of 5.65 ms.",
                "```bash",
                "echo 2.00x inside code is not prose",
                "```",
                BenchmarkTables.BEGIN + "results.json",
                "| | distlock |",
                "-->",
                "| 3. | 6,415/s |",
                BenchmarkTables.END,
                ELSEWHERE + "a nested acquisition, 2026-11-29, commit 5715c16 -->",
                "A nested acquisition took 160 µs on PostgreSQL, 1.5x ZooKeeper's.",
                END_OF_ELSEWHERE,
                "Waiters sleep 50 ms between tries, in 16 threads.");

        assertThat(handWritten("page.md", page))
                .containsExactly("page.md:1: distlock served 1.63x the best peer's acquisitions, 6,415/s, with a p99 of"
                        + " 5.65 ms. (1.63x, 6,415/s, 5.65 ms)");
    }

    /** The lines of a page outside code blocks and generated tables that quote a measured figure. */
    static List<String> handWritten(String name, List<String> lines) {
        List<String> found = new ArrayList<>();
        boolean code = false;
        boolean generated = false;
        boolean elsewhere = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            if (line.startsWith(BenchmarkTables.BEGIN)) {
                generated = true;
            } else if (line.startsWith(BenchmarkTables.END)) {
                generated = false;
                continue;
            } else if (line.startsWith(ELSEWHERE)) {
                elsewhere = true;
            } else if (line.startsWith(END_OF_ELSEWHERE)) {
                elsewhere = false;
                continue;
            }
            if (code || generated || elsewhere) {
                continue;
            }
            Matcher figure = MEASURED.matcher(line);
            List<String> figures = new ArrayList<>();
            while (figure.find()) {
                figures.add(figure.group());
            }
            if (!figures.isEmpty()) {
                found.add(name + ":" + (i + 1) + ": " + line + " (" + String.join(", ", figures) + ")");
            }
        }
        return found;
    }

    private static int count(String text, String marker) {
        int count = 0;
        for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
            count++;
        }
        return count;
    }

    /** README.md and every Markdown page under docs/. */
    static List<Path> pages() throws IOException {
        Path root = root();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isRegularFile(dir.resolve("mvnw"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no README.md next to mvnw above " + Path.of("").toAbsolutePath());
    }
}
