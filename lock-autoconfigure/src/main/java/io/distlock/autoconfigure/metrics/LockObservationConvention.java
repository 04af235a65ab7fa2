package io.distlock.autoconfigure.metrics;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags one of distlock's observations ({@link LockObservations}). Define a bean of this type to rename one
 * or change its tags, for example by extending {@link DefaultLockObservationConvention}; with Spring Boot the timer
 * made of the observation changes with it. One bean serves one observation; keep its low-cardinality values few:
 * they become meter tags.
 */
public interface LockObservationConvention extends ObservationConvention<LockObservationContext> {

    /**
     * The observation this convention names and tags.
     *
     * @return {@link LockObservations#ACQUIRE} or {@link LockObservations#HELD}
     */
    LockObservations observation();

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof LockObservationContext lock && lock.observed() == observation();
    }
}
