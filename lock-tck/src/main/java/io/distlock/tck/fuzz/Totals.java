package io.distlock.tck.fuzz;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The counts of a whole run: the worker processes' summary lines, parsed and added up. */
public final class Totals {

    /** Before an operation's name, its acquisitions by readers. */
    static final String READ = "READ_";

    private final Map<String, Long> counts;

    private Totals(Map<String, Long> counts) {
        this.counts = counts;
    }

    /** Parses {@code FUZZ-SUMMARY NAME=count ...} as {@link Tally#summaryLine()} prints it. */
    static Totals parse(String summaryLine) {
        String[] fields = summaryLine.trim().split(" ");
        if (!fields[0].equals(Tally.SUMMARY)) {
            throw new IllegalArgumentException("not a summary line: " + summaryLine);
        }
        Map<String, Long> counts = new HashMap<>();
        for (String field : Arrays.copyOfRange(fields, 1, fields.length)) {
            int equals = field.indexOf('=');
            counts.put(field.substring(0, equals), Long.parseLong(field.substring(equals + 1)));
        }
        return new Totals(counts);
    }

    static Totals sum(List<Totals> parts) {
        Map<String, Long> counts = new HashMap<>();
        for (Totals part : parts) {
            part.counts.forEach((name, count) -> counts.merge(name, count, Long::sum));
        }
        return new Totals(counts);
    }

    /**
     * The count of an {@link Operation} (its acquisitions), a {@link LeaseProfile} (acquisitions under it) or a {@link
     * Count}.
     *
     * @param name the operation, lease profile or count
     * @return its count over all worker processes
     */
    public long get(Enum<?> name) {
        return counts.getOrDefault(name.name(), 0L);
    }

    /**
     * The acquisitions by readers through an {@link Operation}.
     *
     * @param operation the operation
     * @return its acquisitions by readers, over all worker processes
     */
    public long reads(Operation operation) {
        return counts.getOrDefault(READ + operation.name(), 0L);
    }

    /**
     * Every acquisition, through every operation.
     *
     * @return the acquisitions over all worker processes
     */
    public long acquisitions() {
        return Arrays.stream(Operation.values()).mapToLong(this::get).sum();
    }
}
