package io.distlock.bench.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.distlock.bench.Spread;
import io.distlock.bench.report.JsonReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * One run's {@code results.json}, as {@link JsonReport} wrote it, read back for the tables of the documentation.
 *
 * @param file where it was read from
 * @param root the parsed document
 */
record RunFile(Path file, JsonNode root) {

    /**
     * Reads a run's results.
     *
     * @param file the {@code results.json}
     * @return the run
     * @throws IOException if the file cannot be read or is not a run's results of this layout
     */
    static RunFile read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (root == null || root.path("format").asInt() != JsonReport.FORMAT) {
            throw new IOException(file + " is not a benchmark run's results of format " + JsonReport.FORMAT);
        }
        return new RunFile(file, root);
    }

    String text(String field) {
        return root.path(field).asText();
    }

    /**
     * A contender's results in one scenario.
     *
     * @param scenario the scenario's number, with {@code @held} for a round of the path scenario, e.g. {@code 7@1000}
     * @param contender the contender's id
     * @return its results, if it ran there
     */
    Optional<JsonNode> contender(String scenario, String contender) {
        String[] parts = scenario.split("@");
        int number = Integer.parseInt(parts[0]);
        int held = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        for (JsonNode s : root.path("scenarios")) {
            if (s.path("number").asInt() == number && s.path("held").asInt() == held) {
                for (JsonNode c : s.path("contenders")) {
                    if (c.path("id").asText().equals(contender)) {
                        return Optional.of(c);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A contender's label as the run named it.
     *
     * @param contender its id
     * @return its label, or the id if it ran in no scenario
     */
    String label(String contender) {
        for (JsonNode s : root.path("scenarios")) {
            for (JsonNode c : s.path("contenders")) {
                if (c.path("id").asText().equals(contender)) {
                    return c.path("label").asText();
                }
            }
        }
        return contender;
    }

    /** A figure of each trial, null where a trial has none. */
    static List<Double> trials(JsonNode contender, String figure) {
        JsonNode values = contender.path("trials").path(figure);
        if (!values.isArray()) {
            throw new IllegalArgumentException("no figure '" + figure + "' in the results; known: "
                    + iterable(contender.path("trials").fieldNames()));
        }
        List<Double> trials = new ArrayList<>();
        values.forEach(value -> trials.add(value.isNull() ? null : value.asDouble()));
        return trials;
    }

    /** The median and range of a figure over the trials that have it, or empty if none has it. */
    static Optional<Spread> spread(List<Double> trials) {
        List<Double> present = trials.stream().filter(value -> value != null).toList();
        return present.isEmpty() ? Optional.empty() : Optional.of(Spread.of(present, Double::doubleValue));
    }

    private static String iterable(Iterator<String> names) {
        List<String> all = new ArrayList<>();
        names.forEachRemaining(all::add);
        return String.join(", ", all);
    }
}
