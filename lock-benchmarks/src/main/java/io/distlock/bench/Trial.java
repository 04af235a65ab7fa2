package io.distlock.bench;

import io.distlock.bench.redis.CommandCounts;
import io.distlock.bench.worker.WorkloadResult;

/**
 * One measured trial of one contender: what its processes did, and what Redis ran meanwhile.
 *
 * @param result the workload's result, summed over the contender's processes
 * @param commands the difference of {@code INFO commandstats} from before the start to after the last result
 * @param redisCpuSeconds the CPU time Redis used over the same span
 */
public record Trial(WorkloadResult result, CommandCounts commands, double redisCpuSeconds) {

    /**
     * Redis commands of lock work per successful acquisition, including commands that scripts called.
     *
     * @return calls per acquisition, or 0 if nothing was acquired
     */
    public double commandsPerAcquisition() {
        return result.acquisitions() == 0 ? 0 : commands.lockWorkTotal() / (double) result.acquisitions();
    }

    /**
     * Pub/sub messages that cluster nodes sent each other over the bus per successful acquisition.
     *
     * @return messages per acquisition, or 0 if nothing was acquired or off a cluster
     */
    public double busMessagesPerAcquisition() {
        return result.acquisitions() == 0 ? 0 : commands.busMessages() / (double) result.acquisitions();
    }

    /**
     * The contender's own CPU time per successful acquisition, in microseconds, its client library included.
     *
     * @return CPU microseconds per acquisition, or 0 if nothing was acquired
     */
    public double clientCpuMicrosPerAcquisition() {
        return result.acquisitions() == 0 ? 0 : result.cpuNanos() / 1e3 / result.acquisitions();
    }

    /**
     * Redis's CPU time per successful acquisition, in microseconds.
     *
     * @return CPU microseconds per acquisition, or 0 if nothing was acquired
     */
    public double redisCpuMicrosPerAcquisition() {
        return result.acquisitions() == 0 ? 0 : redisCpuSeconds * 1e6 / result.acquisitions();
    }

    /**
     * A percentile of the time from calling acquire until it returned the lock.
     *
     * @param percentile 0 to 100
     * @return milliseconds
     */
    public double acquireMillis(double percentile) {
        return result.acquireNanos().getValueAtPercentile(percentile) / 1e6;
    }

    /**
     * A percentile of the read acquisitions' waits, in a read-write scenario.
     *
     * @param percentile 0 to 100
     * @return milliseconds
     */
    public double readAcquireMillis(double percentile) {
        return result.readAcquireNanos().getValueAtPercentile(percentile) / 1e6;
    }

    /**
     * A percentile of the write acquisitions' waits, in a read-write scenario.
     *
     * @param percentile 0 to 100
     * @return milliseconds
     */
    public double writeAcquireMillis(double percentile) {
        return result.writeAcquireNanos().getValueAtPercentile(percentile) / 1e6;
    }

    /**
     * A percentile of the time of acquire and release together.
     *
     * @param percentile 0 to 100
     * @return microseconds
     */
    public double cycleMicros(double percentile) {
        return result.cycleNanos().getValueAtPercentile(percentile) / 1e3;
    }

    /**
     * The mean time of acquire and release together.
     *
     * @return microseconds
     */
    public double cycleMeanMicros() {
        return result.cycleNanos().getMean() / 1e3;
    }
}
