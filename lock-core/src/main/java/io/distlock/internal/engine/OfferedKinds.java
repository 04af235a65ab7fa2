package io.distlock.internal.engine;

import io.distlock.Kind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The lock kinds a backend's lock offers, each registered once by its builder: what {@link
 * io.distlock.Lock#kind(Kind)} answers from. A kind's unit (its scripts or statements, its commands, its holds) stays
 * the backend's; this only maps the kind to what the lock hands out for it.
 */
public final class OfferedKinds {

    private static final OfferedKinds NONE = new OfferedKinds(Map.of());

    private final Map<Kind<?>, Object> offered;

    private OfferedKinds(Map<Kind<?>, Object> offered) {
        this.offered = offered;
    }

    /**
     * No kind beside the exclusive lock.
     *
     * @return the empty set of kinds
     */
    public static OfferedKinds none() {
        return NONE;
    }

    /**
     * These kinds and one more.
     *
     * @param kind the kind
     * @param locks what the lock hands out for it
     * @param <V> what the kind hands out
     * @return a new set of kinds
     * @throws IllegalArgumentException if the kind is registered already
     */
    public <V> OfferedKinds with(Kind<V> kind, V locks) {
        if (offered.containsKey(kind)) {
            throw new IllegalArgumentException("the " + kind + " is registered already");
        }
        Map<Kind<?>, Object> more = new LinkedHashMap<>(offered);
        more.put(kind, locks);
        return new OfferedKinds(Map.copyOf(more));
    }

    /**
     * What the lock hands out for a kind.
     *
     * @param kind the kind
     * @param <V> what the kind hands out
     * @return it, or empty if the kind is not offered
     */
    @SuppressWarnings("unchecked")
    public <V> Optional<V> find(Kind<V> kind) {
        return Optional.ofNullable((V) offered.get(kind));
    }
}
