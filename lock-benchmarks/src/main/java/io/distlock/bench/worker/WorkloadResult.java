package io.distlock.bench.worker;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one run of a workload did, in one process or summed over several.
 *
 * @param acquisitions successful acquisitions, each followed by its critical section and release
 * @param timeouts acquisitions that waited their whole wait in vain
 * @param violations evidence that a holder was not alone (see {@link ExclusionCheck})
 * @param failures exceptions from acquire, critical section or release
 * @param elapsedNanos from the common start until the last thread finished its last acquisition
 * @param acquireNanos how long each successful acquisition took to return
 * @param cycleNanos how long each acquisition, critical section and release took together
 * @param firstFailure the first failure's description, or "-" if none
 * @param perThread each thread's successful acquisitions, thread by thread and process by process
 * @param cpuNanos CPU time the worker processes used during the run, all their threads together
 * @param processes each worker process's share, process by process; empty for a single thread's result
 * @param readAcquireNanos of {@code acquireNanos}, the read acquisitions' (empty unless the workload reads)
 * @param mostReadersInside the most readers seen inside at once, across processes (0 unless the workload reads)
 */
public record WorkloadResult(
        long acquisitions,
        long timeouts,
        long violations,
        long failures,
        long elapsedNanos,
        Histogram acquireNanos,
        Histogram cycleNanos,
        String firstFailure,
        List<Long> perThread,
        long cpuNanos,
        List<ProcessShare> processes,
        Histogram readAcquireNanos,
        long mostReadersInside) {

    /** Copies the per-thread counts and the process shares. */
    public WorkloadResult {
        perThread = List.copyOf(perThread);
        processes = List.copyOf(processes);
    }

    /** Latencies above this are recorded as this; no wait in the benchmarks comes near it. */
    static final long MAX_TRACKED_NANOS = TimeUnit.MINUTES.toNanos(10);

    private static final int SIGNIFICANT_DIGITS = 3;

    /**
     * An empty latency histogram with the range and precision every run uses.
     *
     * @return the histogram
     */
    public static Histogram newHistogram() {
        // Sized for the values it holds, not for the largest trackable one: a full run keeps thousands of them, and
        // one sized for ten minutes takes 170 KB where a trial's latencies of a few milliseconds need 40 KB.
        Histogram histogram = new Histogram(1_000, 2_000, SIGNIFICANT_DIGITS);
        histogram.setAutoResize(true);
        return histogram;
    }

    /**
     * How long the write acquisitions took to return: all acquisitions but the reads.
     *
     * @return a new histogram
     */
    public Histogram writeAcquireNanos() {
        Histogram writes = acquireNanos.copy();
        writes.subtract(readAcquireNanos);
        return writes;
    }

    /**
     * Successful acquisitions per second over the elapsed time.
     *
     * @return the throughput
     */
    public double perSecond() {
        return elapsedNanos == 0 ? 0 : acquisitions * 1e9 / elapsedNanos;
    }

    /**
     * How evenly the acquisitions went to the threads, as Jain's fairness index: 1 when every thread got as many, 1/n
     * when one of n threads got them all. A lock that lets the releasing thread take it straight back scores low.
     *
     * @return the index, or 1 if nothing was acquired
     */
    public double fairness() {
        double sum = 0;
        double sumOfSquares = 0;
        for (long count : perThread) {
            sum += count;
            sumOfSquares += (double) count * count;
        }
        return sumOfSquares == 0 ? 1 : sum * sum / (perThread.size() * sumOfSquares);
    }

    /**
     * Adds up the results of the processes that ran one workload together; the elapsed time is the longest.
     *
     * @param parts one result per process
     * @return the sum
     */
    public static WorkloadResult merge(List<WorkloadResult> parts) {
        Histogram acquire = newHistogram();
        Histogram cycle = newHistogram();
        Histogram reads = newHistogram();
        long mostReaders = 0;
        long acquisitions = 0;
        long timeouts = 0;
        long violations = 0;
        long failures = 0;
        long elapsed = 0;
        long cpu = 0;
        String firstFailure = "-";
        List<Long> perThread = new ArrayList<>();
        List<ProcessShare> processes = new ArrayList<>();
        for (WorkloadResult part : parts) {
            perThread.addAll(part.perThread);
            processes.addAll(part.processes);
            acquisitions += part.acquisitions;
            timeouts += part.timeouts;
            violations += part.violations;
            failures += part.failures;
            elapsed = Math.max(elapsed, part.elapsedNanos);
            cpu += part.cpuNanos;
            acquire.add(part.acquireNanos);
            cycle.add(part.cycleNanos);
            reads.add(part.readAcquireNanos);
            mostReaders = Math.max(mostReaders, part.mostReadersInside);
            if ("-".equals(firstFailure)) {
                firstFailure = part.firstFailure;
            }
        }
        return new WorkloadResult(
                acquisitions,
                timeouts,
                violations,
                failures,
                elapsed,
                acquire,
                cycle,
                firstFailure,
                perThread,
                cpu,
                processes,
                reads,
                mostReaders);
    }

    String encode() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("acquisitions", Long.toString(acquisitions));
        fields.put("timeouts", Long.toString(timeouts));
        fields.put("violations", Long.toString(violations));
        fields.put("failures", Long.toString(failures));
        fields.put("elapsed", Long.toString(elapsedNanos));
        fields.put("acquire", encode(acquireNanos));
        fields.put("cycle", encode(cycleNanos));
        fields.put("firstFailure", WireFields.text(firstFailure));
        fields.put("perThread", perThread.stream().map(String::valueOf).collect(Collectors.joining(",")));
        fields.put("cpu", Long.toString(cpuNanos));
        fields.put("readAcquire", encode(readAcquireNanos));
        fields.put("mostReaders", Long.toString(mostReadersInside));
        return WireFields.format(fields);
    }

    /** Reads one worker process's result, which is that process's whole share. */
    static WorkloadResult decode(String line) {
        Map<String, String> fields = WireFields.parse(line);
        long acquisitions = Long.parseLong(WireFields.get(fields, "acquisitions"));
        Histogram acquire = decodeHistogram(WireFields.get(fields, "acquire"));
        return new WorkloadResult(
                acquisitions,
                Long.parseLong(WireFields.get(fields, "timeouts")),
                Long.parseLong(WireFields.get(fields, "violations")),
                Long.parseLong(WireFields.get(fields, "failures")),
                Long.parseLong(WireFields.get(fields, "elapsed")),
                acquire,
                decodeHistogram(WireFields.get(fields, "cycle")),
                WireFields.untext(WireFields.get(fields, "firstFailure")),
                Arrays.stream(WireFields.get(fields, "perThread").split(","))
                        .map(Long::valueOf)
                        .toList(),
                Long.parseLong(WireFields.get(fields, "cpu")),
                List.of(new ProcessShare(acquisitions, acquire)),
                decodeHistogram(WireFields.get(fields, "readAcquire")),
                Long.parseLong(WireFields.get(fields, "mostReaders")));
    }

    private static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    private static Histogram decodeHistogram(String encoded) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("a worker sent a corrupt latency histogram", e);
        }
    }
}
