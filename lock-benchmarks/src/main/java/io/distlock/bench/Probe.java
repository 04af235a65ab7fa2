package io.distlock.bench;

import io.distlock.bench.redis.MonitorCounts;
import io.distlock.bench.worker.WorkloadResult;

/**
 * A short extra run of a contended scenario under MONITOR, which tells commands sent by clients from those called by
 * scripts. It is not a trial: MONITOR slows Redis down.
 *
 * @param result the workload's result
 * @param commands the lock work seen, by sender
 */
public record Probe(WorkloadResult result, MonitorCounts commands) {

    /**
     * Commands sent over the network per successful acquisition.
     *
     * @return the count per acquisition, or 0 if nothing was acquired
     */
    public double topLevelPerAcquisition() {
        return perAcquisition(commands.topLevelTotal());
    }

    /**
     * Commands called inside scripts per successful acquisition.
     *
     * @return the count per acquisition, or 0 if nothing was acquired
     */
    public double inScriptsPerAcquisition() {
        return perAcquisition(commands.inScriptsTotal());
    }

    /**
     * One count per successful acquisition.
     *
     * @param count a number of commands
     * @return the count per acquisition, or 0 if nothing was acquired
     */
    public double perAcquisition(long count) {
        return result.acquisitions() == 0 ? 0 : count / (double) result.acquisitions();
    }
}
