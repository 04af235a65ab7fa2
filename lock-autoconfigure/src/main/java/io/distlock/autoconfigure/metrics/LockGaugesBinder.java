package io.distlock.autoconfigure.metrics;

import io.distlock.monitor.InspectableLock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Gauges of what a lock holds and waits for in this instance, read from its memory when the registry is scraped:
 *
 * <ul>
 *   <li>{@value #HELD_LOCKS}: the holds that are neither released nor known lost;
 *   <li>{@value #WAITING_THREADS}: the threads waiting for a lock.
 * </ul>
 */
public final class LockGaugesBinder implements MeterBinder {

    /** The name of the gauge of held locks. */
    public static final String HELD_LOCKS = "distlock.held.locks";

    /** The name of the gauge of waiting threads. */
    public static final String WAITING_THREADS = "distlock.waiting.threads";

    private final InspectableLock lock;

    /**
     * Gauges of one lock.
     *
     * @param lock the lock to read
     */
    public LockGaugesBinder(InspectableLock lock) {
        this.lock = lock;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(HELD_LOCKS, lock, InspectableLock::heldCount)
                .description("Distributed locks this instance holds, neither released nor known lost")
                .baseUnit("locks")
                .register(registry);
        Gauge.builder(WAITING_THREADS, lock, InspectableLock::waitingCount)
                .description("Threads of this instance waiting for a distributed lock")
                .baseUnit("threads")
                .register(registry);
    }
}
