package io.distlock.monitor;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * How one key stands on the server, as {@link InspectableLock#keyState(String)} found it.
 *
 * @param key the key asked about
 * @param held whether anyone holds the key: an owner, readers, or a waiter it was handed to
 * @param remainingLease the lease left as the server counts it; null if the key is free, or held without an expiry
 *     (which distlock never sets)
 * @param heldByThisInstance whether a hold of this instance owns the key, as this instance believes
 * @param holder the instance name of the key's holder ({@code distlock.instance-name}), as the store keeps it; null if
 *     the key is free, or its store names no single holder (readers, a path lock, or a hold taken by a version that
 *     did not write names)
 * @param heldSince when the holder took the key, on the store's clock; null whenever {@code holder} is
 */
public record KeyState(
        String key,
        boolean held,
        @Nullable Duration remainingLease,
        boolean heldByThisInstance,
        @Nullable String holder,
        @Nullable Instant heldSince) {

    /**
     * A key's state without a holder's name, for a store that keeps none.
     *
     * @param key the key asked about
     * @param held whether anyone holds the key
     * @param remainingLease the lease left as the server counts it, or null
     * @param heldByThisInstance whether a hold of this instance owns the key
     */
    public KeyState(String key, boolean held, @Nullable Duration remainingLease, boolean heldByThisInstance) {
        this(key, held, remainingLease, heldByThisInstance, null, null);
    }
}
