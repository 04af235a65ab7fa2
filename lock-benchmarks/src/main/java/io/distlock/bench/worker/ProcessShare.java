package io.distlock.bench.worker;

import org.HdrHistogram.Histogram;

/**
 * What one worker process got out of a workload that several ran together: how fair the lock was between processes.
 *
 * @param acquisitions the process's successful acquisitions
 * @param acquireNanos how long each of them waited to acquire
 */
public record ProcessShare(long acquisitions, Histogram acquireNanos) {}
