package io.distlock.bench.worker;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.ValueOperations;

/**
 * A critical section that proves its holder was alone, so that a lock that is fast because it is broken cannot win.
 *
 * <p>Three pieces of evidence count as violations: another thread of this process found inside; an update of a
 * deliberately unguarded counter lost to an overlapping holder; and, across processes, a Redis counter that does not go
 * exactly from 0 to 1 on entry and back to 0 on exit.
 */
final class ExclusionCheck implements CriticalSection {

    private final AtomicInteger inside = new AtomicInteger();
    private final LongAdder overlaps = new LongAdder();
    private final @Nullable ValueOperations<String, String> redis;
    private final String insideKey;

    /** Read and written in two steps on purpose: two holders at once lose an increment. */
    private volatile long unguardedCount;

    /**
     * Creates the check.
     *
     * @param redis where the cross-process counter lives, or null to check within this process only
     * @param insideKey the cross-process counter's key
     */
    ExclusionCheck(@Nullable ValueOperations<String, String> redis, String insideKey) {
        this.redis = redis;
        this.insideKey = insideKey;
    }

    @Override
    public void run() {
        if (inside.incrementAndGet() != 1) {
            overlaps.increment();
        }
        if (redis != null) {
            expect(redis.increment(insideKey, 1), 1);
        }
        long seen = unguardedCount;
        Thread.onSpinWait();
        unguardedCount = seen + 1;
        if (redis != null) {
            expect(redis.decrement(insideKey, 1), 0);
        }
        inside.decrementAndGet();
    }

    @Override
    public long violations(long acquisitions) {
        return overlaps.sum() + Math.abs(acquisitions - unguardedCount);
    }

    private void expect(@Nullable Long counter, long expected) {
        if (counter == null || counter != expected) {
            overlaps.increment();
        }
    }
}
