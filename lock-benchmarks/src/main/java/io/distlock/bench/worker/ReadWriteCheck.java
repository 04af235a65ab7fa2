package io.distlock.bench.worker;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.ValueOperations;

/**
 * A critical section for a read-write lock, proving across processes that a writer was alone and that readers met no
 * writer, while counting how many readers were inside at once, so that a lock that never lets readers share is seen.
 *
 * <p>One Redis counter holds both: a reader adds 1, a writer adds {@link #WRITER}. A writer must see exactly
 * {@code WRITER} on entry and 0 on exit; a reader must see less than {@code WRITER} on entry and on exit. Readers of
 * other processes are counted too, which is why the count lives in Redis.
 */
final class ReadWriteCheck implements CriticalSection {

    /** Far above any number of readers, so that a writer's share of the counter cannot be mistaken for readers. */
    private static final long WRITER = 1_000_000;

    private final ValueOperations<String, String> redis;
    private final String insideKey;
    private final LongAdder violations = new LongAdder();
    private final LongAccumulator mostReaders = new LongAccumulator(Math::max, 0);
    private final AtomicLong writersInside = new AtomicLong();

    ReadWriteCheck(ValueOperations<String, String> redis, String insideKey) {
        this.redis = redis;
        this.insideKey = insideKey;
    }

    @Override
    public void run() {
        if (writersInside.incrementAndGet() != 1) {
            violations.increment();
        }
        expect(redis.increment(insideKey, WRITER), true);
        expect(redis.decrement(insideKey, WRITER), false);
        writersInside.decrementAndGet();
    }

    @Override
    public void runShared() {
        if (writersInside.get() != 0) {
            violations.increment();
        }
        Long readers = redis.increment(insideKey, 1);
        if (readers == null || readers >= WRITER) {
            violations.increment();
        } else {
            mostReaders.accumulate(readers);
        }
        Long left = redis.decrement(insideKey, 1);
        if (left == null || left >= WRITER) {
            violations.increment();
        }
    }

    @Override
    public long violations(long acquisitions) {
        return violations.sum();
    }

    @Override
    public long mostReadersInside() {
        return mostReaders.get();
    }

    private void expect(@Nullable Long counter, boolean entering) {
        if (counter == null || counter != (entering ? WRITER : 0)) {
            violations.increment();
        }
    }
}
