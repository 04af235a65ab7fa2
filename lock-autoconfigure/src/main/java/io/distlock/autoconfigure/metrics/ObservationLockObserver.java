package io.distlock.autoconfigure.metrics;

import io.distlock.LockLostException;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Observes each acquisition and each hold with Micrometer's Observation API ({@link LockObservations}), so that
 * tracing shows lock waits and held regions as spans, and Spring Boot's meter handler makes distlock's {@code
 * distlock.acquire} and {@code distlock.held} timers of them. Named and tagged by a {@link LockObservationConvention}:
 * the application's, where it defines one, else the {@link DefaultLockObservationConvention}.
 */
public final class ObservationLockObserver implements LockObserver {

    private static final DefaultLockObservationConvention DEFAULT_ACQUIRE =
            new DefaultLockObservationConvention(LockObservations.ACQUIRE);
    private static final DefaultLockObservationConvention DEFAULT_HELD =
            new DefaultLockObservationConvention(LockObservations.HELD);

    private final ObservationRegistry registry;
    private final LockKeyGroups groups;
    private final @Nullable LockObservationConvention acquireConvention;
    private final @Nullable LockObservationConvention heldConvention;

    /**
     * An observer that reports to a registry with the default names and tags.
     *
     * @param registry where the observations go
     * @param groups how keys map to the {@code group} tag
     */
    public ObservationLockObserver(ObservationRegistry registry, LockKeyGroups groups) {
        this(registry, groups, List.of());
    }

    /**
     * An observer that reports to a registry.
     *
     * @param registry where the observations go
     * @param groups how keys map to the {@code group} tag
     * @param conventions the application's names and tags: for each observation the first that {@linkplain
     *     LockObservationConvention#observation() serves it}, else the {@link DefaultLockObservationConvention}
     */
    public ObservationLockObserver(
            ObservationRegistry registry, LockKeyGroups groups, List<LockObservationConvention> conventions) {
        this.registry = registry;
        this.groups = groups;
        this.acquireConvention = first(conventions, LockObservations.ACQUIRE);
        this.heldConvention = first(conventions, LockObservations.HELD);
    }

    private static @Nullable LockObservationConvention first(
            List<LockObservationConvention> conventions, LockObservations observed) {
        return conventions.stream()
                .filter(convention -> convention.observation() == observed)
                .findFirst()
                .orElse(null);
    }

    @Override
    public Acquisition acquisitionStarted(String key, LockKind kind) {
        LockObservationContext context = context(LockObservations.ACQUIRE, key, kind, null);
        Observation observation = observation(LockObservations.ACQUIRE, context).start();
        return ended(observation, context, observation.openScope());
    }

    /** Observed without a scope: no thread waits, and a scope must be closed on the thread that opened it. */
    @Override
    public Acquisition asyncAcquisitionStarted(String key, LockKind kind) {
        LockObservationContext context = context(LockObservations.ACQUIRE, key, kind, null);
        return ended(observation(LockObservations.ACQUIRE, context).start(), context, null);
    }

    private static Acquisition ended(
            Observation observation, LockObservationContext context, Observation.@Nullable Scope scope) {
        return new Acquisition() {
            @Override
            public void acquired() {
                end("acquired");
            }

            @Override
            public void notAcquired() {
                end("not_acquired");
            }

            @Override
            public void failed(Throwable error) {
                observation.error(error);
                end("error");
            }

            private void end(String outcome) {
                if (scope != null) {
                    scope.close();
                }
                context.ended(outcome);
                observation.stop();
            }
        };
    }

    @Override
    public Holding holdStarted(String key, LockKind kind, long fencingToken) {
        LockObservationContext context = context(LockObservations.HELD, key, kind, fencingToken);
        Observation observation = observation(LockObservations.HELD, context).start();
        return new Holding() {
            @Override
            public void released() {
                context.ended("released");
                observation.stop();
            }

            @Override
            public void lost(LockLostException.Reason reason) {
                context.lost(reason);
                observation.stop();
            }

            @Override
            public void dropped() {
                context.ended("dropped");
                observation.stop();
            }
        };
    }

    private LockObservationContext context(
            LockObservations observed, String key, LockKind kind, @Nullable Long fencingToken) {
        return new LockObservationContext(observed, key, kind, groups.groupOf(key, kind), fencingToken);
    }

    private Observation observation(LockObservations observed, LockObservationContext context) {
        return observed == LockObservations.ACQUIRE
                ? observed.observation(acquireConvention, DEFAULT_ACQUIRE, () -> context, registry)
                : observed.observation(heldConvention, DEFAULT_HELD, () -> context, registry);
    }
}
