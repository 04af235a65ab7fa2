package io.distlock.bench.worker;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.data.redis.core.ValueOperations;

/**
 * A critical section for a semaphore, proving across processes that never more holders than its permits were inside,
 * while counting how many were inside at once, so that a semaphore that admits one at a time is seen. A holder adds 1
 * to a Redis counter on entry and takes it away on exit; the count on entry must not pass the permits.
 */
final class PermitCheck implements CriticalSection {

    private final ValueOperations<String, String> redis;
    private final String insideKey;
    private final int permits;
    private final LongAdder violations = new LongAdder();
    private final LongAccumulator mostInside = new LongAccumulator(Math::max, 0);

    PermitCheck(ValueOperations<String, String> redis, String insideKey, int permits) {
        this.redis = redis;
        this.insideKey = insideKey;
        this.permits = permits;
    }

    @Override
    public void run() {
        Long inside = redis.increment(insideKey, 1);
        if (inside == null || inside > permits) {
            violations.increment();
        } else {
            mostInside.accumulate(inside);
        }
        Long left = redis.decrement(insideKey, 1);
        if (left == null || left < 0) {
            violations.increment();
        }
    }

    @Override
    public long violations(long acquisitions) {
        return violations.sum();
    }

    /** The most holders inside at once: a semaphore's holders share the key as readers do. */
    @Override
    public long mostReadersInside() {
        return mostInside.get();
    }
}
