package io.distlock.tck.process;

/**
 * A line that a {@link ChildJvm} printed, and when the test JVM read it: the moment from which a test measures what
 * happened after the child said so.
 *
 * @param text the line, without its line break
 * @param receivedNanos when the test JVM read it, by {@link System#nanoTime()}
 */
public record ChildLine(String text, long receivedNanos) {}
