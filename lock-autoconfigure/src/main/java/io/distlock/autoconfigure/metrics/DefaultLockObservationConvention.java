package io.distlock.autoconfigure.metrics;

import io.distlock.autoconfigure.metrics.LockObservations.HighCardinalityKeys;
import io.distlock.autoconfigure.metrics.LockObservations.LowCardinalityKeys;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.micrometer.common.KeyValues;
import java.util.Locale;

/**
 * The names and tags of one of {@link LockObservations}: named {@code distlock.acquire} or {@code distlock.held} (span
 * names {@code distlock acquire} and {@code distlock hold}, whatever the key, so that keys built from request data
 * cannot make span names without end), tagged {@code kind}, {@code group} and {@code outcome}, with the key, the
 * fencing token and a lost hold's reason as high-cardinality values for spans.
 */
public class DefaultLockObservationConvention implements LockObservationConvention {

    private static final String[] KIND_TAGS = MicrometerLockObserver.tagValues(LockKind.values());

    private final LockObservations observed;

    /**
     * The default convention of one observation; extend it to change part of it.
     *
     * @param observed the observation it names and tags
     */
    public DefaultLockObservationConvention(LockObservations observed) {
        this.observed = observed;
    }

    @Override
    public LockObservations observation() {
        return observed;
    }

    @Override
    public String getName() {
        return observed.getName();
    }

    @Override
    public String getContextualName(LockObservationContext context) {
        return observed.getContextualName();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
        KeyValues values = KeyValues.of(
                LowCardinalityKeys.KIND.withValue(KIND_TAGS[context.lockKind().ordinal()]),
                LowCardinalityKeys.GROUP.withValue(context.group()));
        String outcome = context.outcome();
        return outcome == null ? values : values.and(LowCardinalityKeys.OUTCOME.withValue(outcome));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
        KeyValues values = KeyValues.of(HighCardinalityKeys.KEY.withValue(PrintableText.of(context.key())));
        Long fencingToken = context.fencingToken();
        if (fencingToken != null) {
            values = values.and(HighCardinalityKeys.FENCING_TOKEN.withValue(Long.toString(fencingToken)));
        }
        if (context.lostReason() != null) {
            values = values.and(HighCardinalityKeys.LOST_REASON.withValue(
                    context.lostReason().name().toLowerCase(Locale.ROOT)));
        }
        return values;
    }
}
