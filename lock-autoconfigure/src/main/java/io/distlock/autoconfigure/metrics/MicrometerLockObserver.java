package io.distlock.autoconfigure.metrics;

import io.distlock.LockLostException;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Records what distlock's locks do as Micrometer meters, tagged by the kind of lock and a {@linkplain LockKeyGroups
 * key group}, never by the key itself:
 *
 * <ul>
 *   <li>{@value #ACQUIRE} (timer): how long acquisitions took, by {@code kind}, {@code group} and {@code outcome}
 *       ({@code acquired}, {@code not_acquired}, {@code error});
 *   <li>{@value #HELD} (timer): how long holds lasted, by {@code kind}, {@code group} and {@code outcome} ({@code
 *       released}, {@code lost}, {@code dropped});
 *   <li>{@value #LOST} (counter): holds found lost, by {@code kind}, {@code group} and {@code reason};
 *   <li>{@value #RENEWALS} (counter): holds whose leases a renewal confirmed or failed to, by {@code outcome} ({@code
 *       succeeded}, {@code failed});
 *   <li>{@value #HANDOVERS} (counter): releases that handed the key straight to a waiter of this instance, by {@code
 *       group}.
 * </ul>
 *
 * Each meter's tags are the same whatever happened, as registries such as Prometheus require. Where distlock's
 * observations run ({@link ObservationLockObserver}), the two timers are made of them by the observation registry's
 * meter handler, as Spring Boot configures it, under the same names and tags (and the handler's {@code error} tag):
 * this observer then records the counters only, so that each fact has one meter.
 */
public final class MicrometerLockObserver implements LockObserver {

    /** The name of the acquisition timer. */
    public static final String ACQUIRE = "distlock.acquire";

    /** The name of the hold timer. */
    public static final String HELD = "distlock.held";

    /** The name of the lost-hold counter. */
    public static final String LOST = "distlock.lost";

    /** The name of the renewal counter. */
    public static final String RENEWALS = "distlock.renewals";

    /** The name of the handover counter. */
    public static final String HANDOVERS = "distlock.handovers";

    private static final String[] KIND_TAGS = tagValues(LockKind.values());

    private final MeterRegistry registry;
    private final LockKeyGroups groups;
    private final Meter.MeterProvider<Timer> acquisitions;
    private final Meter.MeterProvider<Timer> holds;
    private final Meter.MeterProvider<Counter> losses;
    private final Counter renewed;
    private final Counter renewalsFailed;
    private final Meter.MeterProvider<Counter> handovers;
    private final boolean timers;

    /**
     * An observer that records every meter into a registry, the timers included.
     *
     * @param registry where the meters go
     * @param groups how keys map to the {@code group} tag
     */
    public MicrometerLockObserver(MeterRegistry registry, LockKeyGroups groups) {
        this(registry, groups, true);
    }

    /**
     * An observer that records into a registry.
     *
     * @param registry where the meters go
     * @param groups how keys map to the {@code group} tag
     * @param timers whether to record {@value #ACQUIRE} and {@value #HELD} here; false where observations of
     *     acquisitions and holds become those timers
     */
    public MicrometerLockObserver(MeterRegistry registry, LockKeyGroups groups, boolean timers) {
        this.timers = timers;
        this.registry = registry;
        this.groups = groups;
        this.acquisitions = Timer.builder(ACQUIRE)
                .description(
                        "Time from a call for a distributed lock until it was acquired or the caller gave up: the wait for a lock")
                .withRegistry(registry);
        this.holds = Timer.builder(HELD)
                .description(
                        "Time a distributed lock was held, from its grant to its release, its loss, or the collection of a handle nobody released")
                .withRegistry(registry);
        this.losses = Counter.builder(LOST)
                .description("Distributed locks found lost before their release")
                .baseUnit("holds")
                .withRegistry(registry);
        Counter.Builder renewals = Counter.builder(RENEWALS)
                .description("Auto-renewed holds whose lease a renewal round extended, or failed to")
                .baseUnit("holds");
        this.renewed = renewals.tag("outcome", "succeeded").register(registry);
        this.renewalsFailed = renewals.tag("outcome", "failed").register(registry);
        this.handovers = Counter.builder(HANDOVERS)
                .description("Releases that handed the lock straight to a waiting thread of this instance")
                .withRegistry(registry);
    }

    /** Timed as a blocking acquisition is: a timer sample may stop on any thread. */
    @Override
    public Acquisition asyncAcquisitionStarted(String key, LockKind kind) {
        return acquisitionStarted(key, kind);
    }

    @Override
    public Acquisition acquisitionStarted(String key, LockKind kind) {
        if (!timers) {
            return new Acquisition() {};
        }
        Timer.Sample sample = Timer.start(registry);
        Tags tags = tags(key, kind);
        return new Acquisition() {
            @Override
            public void acquired() {
                sample.stop(acquisitions.withTags(tags.and("outcome", "acquired")));
            }

            @Override
            public void notAcquired() {
                sample.stop(acquisitions.withTags(tags.and("outcome", "not_acquired")));
            }

            @Override
            public void failed(Throwable error) {
                sample.stop(acquisitions.withTags(tags.and("outcome", "error")));
            }
        };
    }

    @Override
    public Holding holdStarted(String key, LockKind kind, long fencingToken) {
        Timer.@Nullable Sample sample = timers ? Timer.start(registry) : null;
        Tags tags = tags(key, kind);
        return new Holding() {
            @Override
            public void released() {
                stop("released");
            }

            @Override
            public void lost(LockLostException.Reason reason) {
                stop("lost");
                losses.withTags(tags.and("reason", reason.name().toLowerCase(Locale.ROOT)))
                        .increment();
            }

            @Override
            public void dropped() {
                stop("dropped");
            }

            private void stop(String outcome) {
                if (sample != null) {
                    sample.stop(holds.withTags(tags.and("outcome", outcome)));
                }
            }
        };
    }

    @Override
    public void renewed(int holds) {
        renewed.increment(holds);
    }

    @Override
    public void renewalFailed(int holds) {
        renewalsFailed.increment(holds);
    }

    @Override
    public void handedOver(String key) {
        // Only exclusive holds are handed over.
        handovers.withTags("group", groups.groupOf(key, LockKind.EXCLUSIVE)).increment();
    }

    private Tags tags(String key, LockKind kind) {
        return Tags.of("kind", KIND_TAGS[kind.ordinal()], "group", groups.groupOf(key, kind));
    }

    static String[] tagValues(LockKind[] kinds) {
        String[] values = new String[kinds.length];
        for (LockKind kind : kinds) {
            values[kind.ordinal()] = kind.name().toLowerCase(Locale.ROOT);
        }
        return values;
    }
}
