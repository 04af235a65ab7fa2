package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.worker.WorkloadResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Everything one contender did in one scenario: its warm-up, its trials and, for contended scenarios, its probe.
 *
 * @param kind the contender
 * @param warmup the unmeasured warm-up's result, kept for its violations and failures
 * @param trials the measured trials
 * @param probe the MONITOR probe, or null for uncontended scenarios
 */
public record Measurement(
        ContenderKind kind,
        WorkloadResult warmup,
        List<Trial> trials,
        @Nullable Probe probe) {

    /** Copies the trials. */
    public Measurement {
        trials = List.copyOf(trials);
    }

    /**
     * Successful acquisitions per second.
     *
     * @return over the trials
     */
    public Spread perSecond() {
        return Spread.of(trials, trial -> trial.result().perSecond());
    }

    /**
     * A percentile of the time from calling acquire until it returned the lock, in milliseconds.
     *
     * @param percentile for example 99
     * @return over the trials
     */
    public Spread acquireMillis(double percentile) {
        return Spread.of(trials, trial -> trial.acquireMillis(percentile));
    }

    /**
     * A percentile of the read acquisitions' waits, in a read-write scenario.
     *
     * @param percentile 0 to 100
     * @return milliseconds, over the trials
     */
    public Spread readAcquireMillis(double percentile) {
        return Spread.of(trials, trial -> trial.readAcquireMillis(percentile));
    }

    /**
     * A percentile of the write acquisitions' waits, in a read-write scenario.
     *
     * @param percentile 0 to 100
     * @return milliseconds, over the trials
     */
    public Spread writeAcquireMillis(double percentile) {
        return Spread.of(trials, trial -> trial.writeAcquireMillis(percentile));
    }

    /**
     * The most readers inside at once, in a read-write scenario: above 1 only if readers really shared the lock.
     *
     * @return over the trials
     */
    public Spread mostReadersInside() {
        return Spread.of(trials, trial -> trial.result().mostReadersInside());
    }

    /**
     * How evenly the threads got the lock, as Jain's fairness index (see {@link WorkloadResult#fairness()}).
     *
     * @return over the trials
     */
    public Spread fairness() {
        return Spread.of(trials, trial -> trial.result().fairness());
    }

    /**
     * How each worker process fared against the others, when several ran each trial on one key.
     *
     * @return one entry per process, or empty if each trial ran in one process
     */
    public List<ProcessFairness> perProcess() {
        return ProcessFairness.of(trials);
    }

    /**
     * The highest process's p99 wait over the lowest one's (see {@link ProcessFairness#p99Ratio}).
     *
     * @return over the trials
     */
    public Spread processP99Ratio() {
        return Spread.of(trials, ProcessFairness::p99Ratio);
    }

    /**
     * A percentile of the time of acquire and release together, in microseconds.
     *
     * @param percentile for example 50
     * @return over the trials
     */
    public Spread cycleMicros(double percentile) {
        return Spread.of(trials, trial -> trial.cycleMicros(percentile));
    }

    /**
     * The mean time of acquire and release together, in microseconds.
     *
     * @return over the trials
     */
    public Spread cycleMeanMicros() {
        return Spread.of(trials, Trial::cycleMeanMicros);
    }

    /**
     * Redis calls per successful acquisition, including those made by scripts.
     *
     * @return over the trials
     */
    public Spread commandsPerAcquisition() {
        return Spread.of(trials, Trial::commandsPerAcquisition);
    }

    /**
     * The contender's own CPU time per successful acquisition, in microseconds.
     *
     * @return over the trials
     */
    public Spread clientCpuMicros() {
        return Spread.of(trials, Trial::clientCpuMicrosPerAcquisition);
    }

    /**
     * Redis's CPU time per successful acquisition, in microseconds.
     *
     * @return over the trials
     */
    public Spread redisCpuMicros() {
        return Spread.of(trials, Trial::redisCpuMicrosPerAcquisition);
    }

    /**
     * Pub/sub messages sent over a cluster's bus per successful acquisition.
     *
     * @return over the trials; all 0 off a cluster
     */
    public Spread busMessagesPerAcquisition() {
        return Spread.of(trials, Trial::busMessagesPerAcquisition);
    }

    /**
     * Subscribe commands per trial.
     *
     * @return over the trials
     */
    public Spread subscribesPerTrial() {
        return Spread.of(trials, trial -> trial.commands().subscribes());
    }

    /**
     * Unsubscribe commands per trial.
     *
     * @return over the trials
     */
    public Spread unsubscribesPerTrial() {
        return Spread.of(trials, trial -> trial.commands().unsubscribes());
    }

    /**
     * Each lock-work command's calls per successful acquisition, over all trials together.
     *
     * @return calls per acquisition by command name
     */
    public Map<String, Double> commandMix() {
        long acquisitions = trials.stream()
                .mapToLong(trial -> trial.result().acquisitions())
                .sum();
        Map<String, Double> mix = new TreeMap<>();
        for (Trial trial : trials) {
            trial.commands()
                    .lockWork()
                    .forEach((name, calls) -> mix.merge(name, calls / (double) Math.max(1, acquisitions), Double::sum));
        }
        return mix;
    }

    /**
     * Evidence of two holders at once, in any run of this contender in this scenario.
     *
     * @return the number of violations
     */
    public long violations() {
        return runs().mapToLong(WorkloadResult::violations).sum();
    }

    /**
     * Exceptions from acquire, critical section or release, in any run.
     *
     * @return the number of failures
     */
    public long failures() {
        return runs().mapToLong(WorkloadResult::failures).sum();
    }

    /**
     * Acquisitions that waited in vain, in the measured trials.
     *
     * @return the number of timeouts
     */
    public long timeouts() {
        return trials.stream().mapToLong(trial -> trial.result().timeouts()).sum();
    }

    /**
     * The first failure of any run.
     *
     * @return its description, or "-" if there was none
     */
    public String firstFailure() {
        return runs().map(WorkloadResult::firstFailure)
                .filter(failure -> !"-".equals(failure))
                .findFirst()
                .orElse("-");
    }

    private Stream<WorkloadResult> runs() {
        List<WorkloadResult> runs = new ArrayList<>();
        runs.add(warmup);
        trials.forEach(trial -> runs.add(trial.result()));
        if (probe != null) {
            runs.add(probe.result());
        }
        return runs.stream();
    }
}
