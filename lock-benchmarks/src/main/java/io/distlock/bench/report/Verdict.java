package io.distlock.bench.report;

/**
 * One of the project's performance targets, as measured.
 *
 * @param target what the project wants
 * @param measured the figures behind the verdict
 * @param met whether the median figures meet the target
 * @param pairedTrials in how many trials the target was met, comparing each trial of distlock with the trial of the
 *     same number of the other contender, which ran right next to it; for a target of distlock's own, in how many of
 *     its trials; "-" where there is one figure only
 */
public record Verdict(String target, String measured, boolean met, String pairedTrials) {}
