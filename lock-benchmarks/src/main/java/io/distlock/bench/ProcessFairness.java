package io.distlock.bench;

import io.distlock.bench.worker.ProcessShare;
import java.util.ArrayList;
import java.util.List;

/**
 * How one worker process fared against the others in a workload that several processes ran on one key, over the
 * trials: a lock that is fair between processes gives each the same share and the same waits.
 *
 * @param process the worker's number, from 1
 * @param sharePercent its share of all acquisitions, in percent
 * @param p50Millis the median wait to acquire, in milliseconds
 * @param p99Millis the 99th percentile wait, in milliseconds
 * @param maxMillis the longest wait, in milliseconds
 */
public record ProcessFairness(int process, Spread sharePercent, Spread p50Millis, Spread p99Millis, Spread maxMillis) {

    /**
     * The figures of each process, from trials whose results hold one share per process.
     *
     * @param trials the trials
     * @return one entry per process, in process order; empty if a trial ran in one process only
     */
    static List<ProcessFairness> of(List<Trial> trials) {
        int processes = trials.stream()
                .mapToInt(trial -> trial.result().processes().size())
                .min()
                .orElse(0);
        List<ProcessFairness> figures = new ArrayList<>();
        if (processes < 2) {
            return figures;
        }
        for (int i = 0; i < processes; i++) {
            int index = i;
            figures.add(new ProcessFairness(
                    i + 1,
                    Spread.of(
                            trials,
                            trial -> 100.0
                                    * share(trial, index).acquisitions()
                                    / Math.max(1, trial.result().acquisitions())),
                    Spread.of(trials, trial -> waitMillis(share(trial, index), 50)),
                    Spread.of(trials, trial -> waitMillis(share(trial, index), 99)),
                    Spread.of(
                            trials, trial -> share(trial, index).acquireNanos().getMaxValue() / 1e6)));
        }
        return figures;
    }

    /**
     * The highest process's p99 wait divided by the lowest one's, in one trial: 1 when every process waited alike.
     *
     * @param trial the trial
     * @return the ratio; infinite if a process acquired nothing
     */
    public static double p99Ratio(Trial trial) {
        if (trial.result().processes().size() < 2) {
            return 1;
        }
        double highest = 0;
        double lowest = Double.MAX_VALUE;
        for (ProcessShare share : trial.result().processes()) {
            double p99 = waitMillis(share, 99);
            highest = Math.max(highest, p99);
            lowest = Math.min(lowest, p99);
        }
        return lowest == 0 ? Double.POSITIVE_INFINITY : highest / lowest;
    }

    private static ProcessShare share(Trial trial, int index) {
        return trial.result().processes().get(index);
    }

    private static double waitMillis(ProcessShare share, double percentile) {
        return share.acquireNanos().getValueAtPercentile(percentile) / 1e6;
    }
}
