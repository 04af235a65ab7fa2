package io.distlock.autoconfigure.metrics;

import io.distlock.LockLostException;
import io.distlock.monitor.LockKind;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link LockObservationConvention} reads to name and tag one observation of {@link LockObservations}: an
 * acquisition or a hold of one key, and how it ended.
 */
public final class LockObservationContext extends Observation.Context {

    private final LockObservations observed;
    private final String key;
    private final LockKind lockKind;
    private final String group;
    private final @Nullable Long fencingToken;
    private @Nullable String outcome;
    private LockLostException.@Nullable Reason lostReason;

    LockObservationContext(
            LockObservations observed, String key, LockKind lockKind, String group, @Nullable Long fencingToken) {
        this.observed = observed;
        this.key = key;
        this.lockKind = lockKind;
        this.group = group;
        this.fencingToken = fencingToken;
    }

    /**
     * Which observation this is.
     *
     * @return {@link LockObservations#ACQUIRE} or {@link LockObservations#HELD}
     */
    public LockObservations observed() {
        return observed;
    }

    /**
     * The key the application asked for; for a path lock, the path. High cardinality: it may come from request data.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The kind of lock.
     *
     * @return the kind
     */
    public LockKind lockKind() {
        return lockKind;
    }

    /**
     * The key's group ({@link LockKeyGroups}), bounded by {@code distlock.metrics.max-groups}.
     *
     * @return the group
     */
    public String group() {
        return group;
    }

    /**
     * The hold's fencing token; null for an acquisition.
     *
     * @return the token, or null
     */
    public @Nullable Long fencingToken() {
        return fencingToken;
    }

    /**
     * How the observation ended: {@code acquired}, {@code not_acquired} or {@code error} for an acquisition, {@code
     * released}, {@code lost} or {@code dropped} for a hold; null while it runs.
     *
     * @return the outcome, or null
     */
    public @Nullable String outcome() {
        return outcome;
    }

    /**
     * Why a hold was lost; null unless its outcome is {@code lost}.
     *
     * @return the reason, or null
     */
    public LockLostException.@Nullable Reason lostReason() {
        return lostReason;
    }

    void ended(String outcome) {
        this.outcome = outcome;
    }

    void lost(LockLostException.Reason reason) {
        this.lostReason = reason;
        this.outcome = "lost";
    }
}
