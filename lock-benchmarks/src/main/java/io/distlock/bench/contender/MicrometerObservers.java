package io.distlock.bench.contender;

import io.distlock.autoconfigure.metrics.LockKeyGroups;
import io.distlock.autoconfigure.metrics.MicrometerLockObserver;
import io.distlock.autoconfigure.metrics.ObservationLockObserver;
import io.distlock.monitor.LockObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;

/**
 * The observers distlock's auto-configuration gives an application with Spring Boot's Actuator and no tracer: its
 * meters, and its observations handled by Micrometer's meter handler, both into one in-memory registry.
 */
final class MicrometerObservers {

    private MicrometerObservers() {}

    static LockObserver create() {
        MeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        LockKeyGroups groups = LockKeyGroups.byPrefix();
        return LockObserver.of(
                // As the auto-configuration wires them: the observations make the two timers, the meter observer
                // records the counters only.
                List.of(
                        new MicrometerLockObserver(meters, groups, false),
                        new ObservationLockObserver(observations, groups)));
    }
}
