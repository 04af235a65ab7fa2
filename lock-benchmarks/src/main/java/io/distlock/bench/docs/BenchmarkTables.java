package io.distlock.bench.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Generates the benchmark tables of a documentation page from the runs' {@code results.json}, so that no figure is
 * copied by hand. A page defines each table in a comment, and the table follows it up to an end marker:
 *
 * <pre>
 * &lt;!-- benchmark table from benchmarks/results.json
 * | | distlock | redisson |
 * | 1. one thread, lock+unlock p50 | 1 cycleP50Micros µs |
 * | 3. 16 threads on one key | 3 perSecond /s |
 * --&gt;
 * (generated: the table, and a line naming the run's date, commit and machine)
 * &lt;!-- end of benchmark table --&gt;
 * </pre>
 *
 * <p>The file is relative to the page; the header names the contenders by id, and each row's second cell says what
 * its cells show ({@link Cell}).
 */
public final class BenchmarkTables {

    /** The comment that opens a table's definition. */
    public static final String BEGIN = "<!-- benchmark table from ";

    /** The line after a generated table. */
    public static final String END = "<!-- end of benchmark table -->";

    private static final Pattern BLOCK =
            Pattern.compile(Pattern.quote(BEGIN) + "(\\S+)\\n(.*?)\\n-->\\n(.*?)" + Pattern.quote(END), Pattern.DOTALL);

    private BenchmarkTables() {}

    /**
     * The page with every benchmark table generated afresh.
     *
     * @param page where the page is, against which the results' files are found
     * @param text the page's text
     * @return the text with each table as its definition and its run give it
     * @throws IllegalArgumentException if a definition is wrong, naming the page and what is allowed
     * @throws UncheckedIOException if a run's results cannot be read
     */
    public static String generate(Path page, String text) {
        Map<Path, RunFile> runs = new HashMap<>();
        Matcher block = BLOCK.matcher(text);
        StringBuilder out = new StringBuilder();
        while (block.find()) {
            Path file = page.resolveSibling(block.group(1)).normalize();
            RunFile run = runs.computeIfAbsent(file, BenchmarkTables::read);
            String table;
            try {
                table = table(run, block.group(1), block.group(2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        page + ": a benchmark table from " + block.group(1) + ": " + e.getMessage(), e);
            }
            block.appendReplacement(
                    out,
                    Matcher.quoteReplacement(
                            BEGIN + block.group(1) + "\n" + block.group(2) + "\n-->\n\n" + table + "\n" + END));
        }
        block.appendTail(out);
        return out.toString();
    }

    private static RunFile read(Path file) {
        try {
            return RunFile.read(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String table(RunFile run, String source, String definition) {
        List<String> lines =
                definition.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("| |")) {
            throw new IllegalArgumentException("its first line should be the header, '| | <contender id> | ... |'");
        }
        List<String> contenders =
                cells(lines.get(0)).subList(1, cells(lines.get(0)).size());
        StringBuilder table = new StringBuilder("|");
        for (String contender : contenders) {
            table.append(" | ").append(run.label(contender));
        }
        table.append(" |\n|---").append("|---:".repeat(contenders.size())).append("|\n");
        for (String row : lines.subList(1, lines.size())) {
            List<String> cells = cells(row);
            if (cells.size() != 2) {
                throw new IllegalArgumentException(
                        "'" + row + "' should be '| <row label> | <what each cell shows> |'");
            }
            Cell cell = Cell.parse(cells.get(1));
            table.append("| ").append(cells.get(0));
            for (String contender : contenders) {
                table.append(" | ").append(cell.render(run, contender));
            }
            table.append(" |\n");
        }
        String results = source.replaceFirst("\\.json$", ".md");
        return table + "\n*" + caption(run) + " ([all figures of the run](" + results + ")).*\n";
    }

    /** The run a table comes from: its date, commit and machine, and how its figures were taken. */
    static String caption(RunFile run) {
        String machine = run.text("machine");
        int comma = machine.indexOf(", ");
        return "Generated from the run of " + run.text("date").substring(0, 10) + " at commit " + run.text("commit")
                + " on " + (comma < 0 ? machine : machine.substring(0, comma)) + ": medians of "
                + run.root().path("trials").asInt() + " trials of "
                + trialLength(run.root().path("trialSeconds").asDouble()) + " per contender";
    }

    private static String trialLength(double seconds) {
        return seconds == Math.rint(seconds) ? (long) seconds + " s" : seconds + " s";
    }

    private static List<String> cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }
}
