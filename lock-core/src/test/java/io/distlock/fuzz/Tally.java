package io.distlock.fuzz;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The counts of one worker process, shared by its threads, and the lines it prints for the parent: at most a few
 * details of violations and errors as they happen, and one summary line at the end.
 */
final class Tally {

    static final String SUMMARY = "FUZZ-SUMMARY";
    static final String VIOLATION = "FUZZ-VIOLATION";
    static final String ERROR = "FUZZ-ERROR";

    private static final int MAX_PRINTED = 20;

    private final Map<Operation, LongAdder> byOperation = adders(Operation.class);
    private final Map<LeaseProfile, LongAdder> byProfile = adders(LeaseProfile.class);
    private final Map<Count, LongAdder> counts = adders(Count.class);
    private final AtomicInteger printed = new AtomicInteger();

    void acquired(Operation operation, LeaseProfile profile) {
        byOperation.get(operation).increment();
        byProfile.get(profile).increment();
    }

    void add(Count count) {
        counts.get(count).increment();
    }

    void violation(Count count, String description) {
        add(count);
        print(VIOLATION + " " + count + ": " + description);
    }

    void error(Count count, String worker, Throwable error) {
        add(count);
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        print(ERROR + " " + count + " in " + worker + ": " + trace.toString().replace('\n', '|'));
    }

    /** The summary line: {@code FUZZ-SUMMARY NAME=count ...} for every operation, lease profile and count. */
    String summaryLine() {
        return Stream.of(byOperation, byProfile, counts)
                .flatMap(map -> map.entrySet().stream())
                .map(entry -> entry.getKey().name() + "=" + entry.getValue().sum())
                .collect(Collectors.joining(" ", SUMMARY + " ", ""));
    }

    private void print(String line) {
        if (printed.incrementAndGet() <= MAX_PRINTED) {
            System.out.println(line);
        }
    }

    private static <E extends Enum<E>> Map<E, LongAdder> adders(Class<E> type) {
        Map<E, LongAdder> adders = new EnumMap<>(type);
        for (E constant : type.getEnumConstants()) {
            adders.put(constant, new LongAdder());
        }
        return adders;
    }
}
