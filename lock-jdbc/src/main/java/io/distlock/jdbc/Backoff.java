package io.distlock.jdbc;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pause between two polls of one acquisition: it starts at the minimum and doubles up to the maximum, and each
 * pause is drawn at random from its upper half so that waiters in different processes do not poll in step.
 */
final class Backoff {

    private final long minNanos;
    private final long maxNanos;
    private long ceilingNanos;

    Backoff(Duration min, Duration max) {
        this.minNanos = min.toNanos();
        this.maxNanos = max.toNanos();
        this.ceilingNanos = minNanos;
    }

    /** The next pause, in nanoseconds. */
    long next() {
        long pause = ThreadLocalRandom.current().nextLong(ceilingNanos / 2, ceilingNanos + 1);
        ceilingNanos = Math.min(maxNanos, ceilingNanos * 2);
        return pause;
    }

    /** Starts again from the minimum, after the key was seen released. */
    void reset() {
        ceilingNanos = minNanos;
    }
}
