package io.distlock.autoconfigure.readme;

import io.distlock.LockLostException;
import io.distlock.autoconfigure.metrics.LockGaugesBinder;
import io.distlock.autoconfigure.metrics.MicrometerLockObserver;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.store.StoreLock;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Consumer;

/**
 * Every meter that distlock's code registers, with every value its tags can take: every event of every kind of lock
 * through {@link MicrometerLockObserver}, and the gauges of {@link LockGaugesBinder}, all for keys of the group
 * {@code stock}.
 */
final class EveryMeterEvent {

    private EveryMeterEvent() {}

    /**
     * Records every event into the registry, then hands it over while the gauges' lock is still open.
     *
     * @param registry where the meters go
     * @param whileGaugesLive what to do with the registry while the gauges can still be read
     */
    static void recordInto(MeterRegistry registry, Consumer<MeterRegistry> whileGaugesLive) {
        LockObserver observer = new MicrometerLockObserver(registry, (key, kind) -> "stock");
        for (LockKind kind : LockKind.values()) {
            observer.acquisitionStarted("stock:1", kind).acquired();
            observer.acquisitionStarted("stock:1", kind).notAcquired();
            observer.acquisitionStarted("stock:1", kind).failed(new IllegalStateException("for the reference"));
            observer.holdStarted("stock:1", kind, 1).released();
            observer.holdStarted("stock:1", kind, 1).dropped();
            for (LockLostException.Reason reason : LockLostException.Reason.values()) {
                observer.holdStarted("stock:1", kind, 1).lost(reason);
            }
        }
        observer.renewed(1);
        observer.renewalFailed(1);
        observer.handedOver("stock:1");
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            new LockGaugesBinder(lock).bindTo(registry);
            whileGaugesLive.accept(registry);
        }
    }
}
