package io.distlock.tck.fuzz;

import io.distlock.LockBackendException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The counts of one worker process, shared by its threads, and the lines it prints for the parent: a few details of
 * violations and errors as they happen, and one summary line at the end.
 */
final class Tally {

    static final String SUMMARY = "FUZZ-SUMMARY";
    static final String VIOLATION = "FUZZ-VIOLATION";
    static final String ERROR = "FUZZ-ERROR";

    /** Enough lines of each count to see what went wrong, without flooding the parent when everything does. */
    private static final int MAX_PRINTED = 20;

    private final Map<Operation, LongAdder> byOperation = each(Operation.class, LongAdder::new);
    private final Map<Operation, LongAdder> readsByOperation = each(Operation.class, LongAdder::new);
    private final Map<LeaseProfile, LongAdder> byProfile = each(LeaseProfile.class, LongAdder::new);
    private final Map<Count, LongAdder> counts = each(Count.class, LongAdder::new);
    private final Map<Count, AtomicInteger> printed = each(Count.class, AtomicInteger::new);

    void acquired(Operation operation, LeaseProfile profile, boolean reading) {
        byOperation.get(operation).increment();
        byProfile.get(profile).increment();
        if (reading) {
            readsByOperation.get(operation).increment();
        }
    }

    void add(Count count) {
        counts.get(count).increment();
    }

    void violation(Count count, String description) {
        add(count);
        print(count, VIOLATION + " " + count + ": " + description);
    }

    /** Counts an error and prints it with its stack trace, on one line. */
    void error(Count count, String worker, Throwable error) {
        add(count);
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        print(
                count,
                ERROR + " " + count + " in " + worker + ": " + trace.toString().replace('\n', '|'));
    }

    /** Counts an error that is expected now and then, such as a slow answer on a busy machine, printing its message. */
    void expectedError(Count count, String worker, Throwable error) {
        add(count);
        print(count, ERROR + " " + count + " in " + worker + ": " + error);
    }

    /**
     * The summary line: {@code FUZZ-SUMMARY NAME=count ...} for every operation, lease profile and count, then
     * {@code READ_NAME=count} for the operations' acquisitions by readers.
     */
    String summaryLine() {
        Stream<String> all = Stream.of(byOperation, byProfile, counts)
                .flatMap(map -> map.entrySet().stream())
                .map(entry -> entry.getKey().name() + "=" + entry.getValue().sum());
        Stream<String> reads = readsByOperation.entrySet().stream()
                .map(entry -> Totals.READ + entry.getKey().name() + "="
                        + entry.getValue().sum());
        return Stream.concat(all, reads).collect(Collectors.joining(" ", SUMMARY + " ", ""));
    }

    /**
     * Runs one section's work for {@code worker}, counting what it throws: what the lock's store or the view's reads
     * may throw on a busy machine as expected errors, the checker's and the lock's other failures as errors.
     *
     * @return false if the worker was interrupted and must stop
     */
    boolean counted(String worker, SectionWork work) {
        try {
            work.run();
        } catch (InterruptedException e) {
            return false;
        } catch (LockBackendException e) {
            expectedError(Count.BACKEND_ERRORS, worker, e);
        } catch (LockView.Unreadable e) {
            expectedError(Count.LOCK_UNREADABLE, worker, e);
        } catch (Checker.CheckerFailure e) {
            error(Count.CHECKER_ERRORS, worker, e);
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            error(Count.UNEXPECTED_ERRORS, worker, e);
        }
        return true;
    }

    /** One section's work, as {@link #counted} runs it. */
    @FunctionalInterface
    interface SectionWork {
        void run() throws InterruptedException, ExecutionException, TimeoutException;
    }

    /** Where a worker's lock view counts what its reads met. */
    LockView.Counts viewCounts() {
        return new LockView.Counts() {
            @Override
            public void readWaited() {
                add(Count.LOCK_READ_WAITED);
            }

            @Override
            public void nodeUnanswered() {
                add(Count.NODE_READ_FAILED);
            }
        };
    }

    private void print(Count count, String line) {
        if (printed.get(count).incrementAndGet() <= MAX_PRINTED) {
            System.out.println(line);
        }
    }

    private static <E extends Enum<E>, V> Map<E, V> each(Class<E> type, Supplier<V> value) {
        Map<E, V> map = new EnumMap<>(type);
        for (E constant : type.getEnumConstants()) {
            map.put(constant, value.get());
        }
        return map;
    }
}
