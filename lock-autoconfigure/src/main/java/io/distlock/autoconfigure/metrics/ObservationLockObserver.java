package io.distlock.autoconfigure.metrics;

import io.distlock.LockLostException;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Observes each acquisition and each held region with Micrometer's Observation API, so that tracing shows lock waits
 * and held regions as spans:
 *
 * <ul>
 *   <li>{@value #ACQUIRE}: from the start of an acquisition to its end. It is the current observation on the acquiring
 *       thread meanwhile, so that work done to acquire nests under it.
 *   <li>{@value #HELD}: from the start of a hold to its release, loss or drop. A hold may end on another thread, so it
 *       is never made current; its parent is the observation current where the lock was acquired.
 * </ul>
 *
 * Their contextual names, which tracers use as span names, are always {@code distlock acquire} and {@code distlock
 * hold}, whatever the key, so that keys built from request data cannot make span names without end. Low-cardinality
 * key values, which also tag the timers an observation handler may derive: {@code distlock.kind},
 * {@code distlock.group} and {@code distlock.outcome} (as for {@link MicrometerLockObserver}'s timers).
 * High-cardinality key values, for spans only: {@code distlock.key} (with control characters escaped, see {@link
 * PrintableText}), and for a hold {@code distlock.fencing.token} and, once lost, {@code distlock.lost.reason}.
 */
public final class ObservationLockObserver implements LockObserver {

    /** The name of the acquisition observation. */
    public static final String ACQUIRE = "distlock.lock.acquire";

    /** The name of the held-region observation. */
    public static final String HELD = "distlock.lock.held";

    private static final String[] KIND_TAGS = MicrometerLockObserver.tagValues(LockKind.values());

    private final ObservationRegistry registry;
    private final LockKeyGroups groups;

    /**
     * An observer that reports to a registry.
     *
     * @param registry where the observations go
     * @param groups how keys map to the {@code distlock.group} key value
     */
    public ObservationLockObserver(ObservationRegistry registry, LockKeyGroups groups) {
        this.registry = registry;
        this.groups = groups;
    }

    @Override
    public Acquisition acquisitionStarted(String key, LockKind kind) {
        Observation observation = observation(ACQUIRE, "acquire", key, kind).start();
        return ended(observation, observation.openScope());
    }

    /** Observed without a scope: no thread waits, and a scope must be closed on the thread that opened it. */
    @Override
    public Acquisition asyncAcquisitionStarted(String key, LockKind kind) {
        return ended(observation(ACQUIRE, "acquire", key, kind).start(), null);
    }

    private static Acquisition ended(Observation observation, Observation.@Nullable Scope scope) {
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
                observation.lowCardinalityKeyValue("distlock.outcome", outcome).stop();
            }
        };
    }

    @Override
    public Holding holdStarted(String key, LockKind kind, long fencingToken) {
        Observation observation = observation(HELD, "hold", key, kind)
                .highCardinalityKeyValue("distlock.fencing.token", Long.toString(fencingToken))
                .start();
        return new Holding() {
            @Override
            public void released() {
                end("released");
            }

            @Override
            public void lost(LockLostException.Reason reason) {
                observation.highCardinalityKeyValue(
                        "distlock.lost.reason", reason.name().toLowerCase(Locale.ROOT));
                end("lost");
            }

            @Override
            public void dropped() {
                end("dropped");
            }

            private void end(String outcome) {
                observation.lowCardinalityKeyValue("distlock.outcome", outcome).stop();
            }
        };
    }

    private Observation observation(String name, String action, String key, LockKind kind) {
        String group = groups.groupOf(key, kind);
        return Observation.createNotStarted(name, registry)
                .contextualName("distlock " + action)
                .lowCardinalityKeyValue("distlock.kind", KIND_TAGS[kind.ordinal()])
                .lowCardinalityKeyValue("distlock.group", group)
                .highCardinalityKeyValue("distlock.key", PrintableText.of(key));
    }
}
