package io.distlock.bench.docs;

import com.fasterxml.jackson.databind.JsonNode;
import io.distlock.bench.Spread;
import io.distlock.bench.report.Numbers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one row of a generated table shows in each contender's column, as the page's table definition writes it:
 * {@code <scenario> <figure> [<unit>] [range] [over <contender> | paired <contender>]}, several joined by {@code " / "}.
 *
 * <ul>
 *   <li><b>scenario</b>: its number, with {@code @held} for a round of the path scenario ({@code 7@1000});
 *   <li><b>figure</b>: a trial figure of {@code results.json} ({@code perSecond}, {@code acquireP99Millis}, ...),
 *       {@code requests} (top-level requests per acquisition, from the MONITOR probe), or {@code process<N>.<figure>}
 *       ({@code process1.p99Millis}, {@code process2.sharePercent});
 *   <li><b>unit</b>: {@code count}, {@code /s}, {@code µs}, {@code ms}, {@code %}, {@code n1} or {@code n2} (one or
 *       two decimals, the default); a time is converted to the unit it is shown in;
 *   <li><b>range</b>: the lowest and highest trial after the median;
 *   <li><b>over</b> a contender: the median over that contender's median, as {@code 1.18x};
 *   <li><b>paired</b> with a contender: the median of the trial-by-trial ratios, with their range, as
 *       {@code 0.98x (0.90x–1.15x)}; the trials of one number ran next to each other under the same load.
 * </ul>
 *
 * @param parts the figures the cell shows, in order
 */
record Cell(List<Part> parts) {

    /** A figure of one scenario, in one unit, maybe as a ratio to another contender. */
    record Part(String scenario, String figure, String unit, boolean range, String over, boolean paired) {}

    private static final List<String> UNITS = List.of("count", "/s", "µs", "ms", "%", "n1", "n2");

    /**
     * Reads a row's definition.
     *
     * @param definition for example {@code 3 acquireP99Millis ms / 3 acquireMaxMillis ms}
     * @return the cell
     * @throws IllegalArgumentException naming what is wrong and what is allowed
     */
    static Cell parse(String definition) {
        List<Part> parts = new ArrayList<>();
        for (String text : definition.split(" / ")) {
            List<String> words = new ArrayList<>(Arrays.asList(text.trim().split("\\s+")));
            if (words.size() < 2) {
                throw new IllegalArgumentException("'" + text + "' names no figure: write <scenario> <figure>, then"
                        + " optionally a unit (" + String.join(", ", UNITS) + "), range, over <contender> or paired"
                        + " <contender>");
            }
            String scenario = words.remove(0);
            String figure = words.remove(0);
            String unit = "n2";
            boolean range = false;
            String over = "";
            boolean paired = false;
            while (!words.isEmpty()) {
                String word = words.remove(0);
                if (UNITS.contains(word)) {
                    unit = word;
                } else if (word.equals("range")) {
                    range = true;
                } else if ((word.equals("over") || word.equals("paired")) && !words.isEmpty()) {
                    over = words.remove(0);
                    paired = word.equals("paired");
                } else {
                    throw new IllegalArgumentException("'" + word + "' in '" + text + "' is not a unit ("
                            + String.join(", ", UNITS) + "), range, over <contender> or paired <contender>");
                }
            }
            parts.add(new Part(scenario, figure, unit, range, over, paired));
        }
        return new Cell(parts);
    }

    /**
     * The cell of one contender.
     *
     * @param run the run
     * @param contender the column's contender id
     * @return the text, with {@code –} for a figure the contender does not have
     */
    String render(RunFile run, String contender) {
        List<String> texts = new ArrayList<>();
        for (Part part : parts) {
            texts.add(render(run, contender, part));
        }
        return String.join(" / ", texts);
    }

    private static String render(RunFile run, String contender, Part part) {
        Optional<List<Double>> trials = trials(run, part.scenario(), contender, part.figure());
        if (trials.isEmpty()) {
            return "–";
        }
        if (part.over().isEmpty()) {
            double scale = scale(part.figure(), part.unit());
            Optional<Spread> spread = RunFile.spread(trials.get().stream()
                    .map(value -> value == null ? null : value * scale)
                    .toList());
            return spread.map(s -> format(s, part.unit(), part.range())).orElse("–");
        }
        Optional<List<Double>> others = trials(run, part.scenario(), part.over(), part.figure());
        if (others.isEmpty()) {
            return "–";
        }
        if (part.paired()) {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < Math.min(trials.get().size(), others.get().size()); i++) {
                Double top = trials.get().get(i);
                Double bottom = others.get().get(i);
                ratios.add(top == null || bottom == null || bottom == 0 ? null : top / bottom);
            }
            return RunFile.spread(ratios).map(s -> ratio(s, true)).orElse("–");
        }
        Optional<Spread> top = RunFile.spread(trials.get());
        Optional<Spread> bottom = RunFile.spread(others.get());
        if (top.isEmpty() || bottom.isEmpty() || bottom.get().median() == 0) {
            return "–";
        }
        double ratio = top.get().median() / bottom.get().median();
        return ratio(new Spread(ratio, ratio, ratio), false);
    }

    private static Optional<List<Double>> trials(RunFile run, String scenario, String contender, String figure) {
        Optional<JsonNode> results = run.contender(scenario, contender);
        if (results.isEmpty()) {
            return Optional.empty();
        }
        JsonNode node = results.get();
        if (figure.equals("requests")) {
            JsonNode requests = node.path("requestsPerAcquisition");
            return requests.isNumber() ? Optional.of(List.of(requests.asDouble())) : Optional.empty();
        }
        if (figure.matches("process\\d+\\..*")) {
            return process(node, figure);
        }
        return Optional.of(RunFile.trials(node, figure));
    }

    /** A process's figure, of which the results keep the median and range only: the median stands for the trials. */
    private static Optional<List<Double>> process(JsonNode contender, String figure) {
        String[] parts = figure.substring("process".length()).split("\\.", 2);
        if (parts.length != 2) {
            throw new IllegalArgumentException(
                    "'" + figure + "' should be process<N>.<figure>, e.g. process1.p99Millis");
        }
        int number = Integer.parseInt(parts[0]);
        for (JsonNode process : contender.path("processes")) {
            if (process.path("process").asInt() == number) {
                JsonNode spread = process.path(parts[1]);
                if (!spread.isObject()) {
                    throw new IllegalArgumentException("no process figure '" + parts[1]
                            + "'; known: sharePercent, p50Millis, p99Millis, maxMillis");
                }
                return Optional.of(List.of(spread.path("median").asDouble()));
            }
        }
        return Optional.empty();
    }

    /** A time in the other unit of the two the results use: a figure in milliseconds shown in µs, or the reverse. */
    private static double scale(String figure, String unit) {
        if (figure.endsWith("Millis") && unit.equals("µs")) {
            return 1000;
        }
        if (figure.endsWith("Micros") && unit.equals("ms")) {
            return 0.001;
        }
        return 1;
    }

    private static String format(Spread spread, String unit, boolean range) {
        String median = number(spread.median(), unit);
        if (!range) {
            return median + suffix(unit);
        }
        String min = number(spread.min(), unit);
        String max = number(spread.max(), unit);
        return min.equals(max) ? median + suffix(unit) : median + suffix(unit) + " (" + min + "–" + max + ")";
    }

    private static String ratio(Spread spread, boolean range) {
        String median = Numbers.ratio(spread.median());
        return range ? median + " (" + Numbers.ratio(spread.min()) + "–" + Numbers.ratio(spread.max()) + ")" : median;
    }

    private static String number(double value, String unit) {
        return switch (unit) {
            case "count", "/s", "%" -> Numbers.count(value);
            case "µs" -> Numbers.micros(value);
            case "ms" -> Numbers.millis(value);
            case "n1" -> String.format(Locale.ROOT, "%.1f", value);
            default -> Numbers.perAcquisition(value);
        };
    }

    private static String suffix(String unit) {
        return switch (unit) {
            case "/s" -> "/s";
            case "µs" -> " µs";
            case "ms" -> " ms";
            case "%" -> "%";
            default -> "";
        };
    }
}
