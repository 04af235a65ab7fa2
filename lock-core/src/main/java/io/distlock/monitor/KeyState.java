package io.distlock.monitor;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How one key stands on the server, as {@link InspectableLock#keyState(String)} found it.
 *
 * @param key the key asked about
 * @param held whether anyone holds the key: an owner, readers, or a waiter it was handed to
 * @param remainingLease the lease left as the server counts it; null if the key is free, or held without an expiry
 *     (which distlock never sets)
 * @param heldByThisInstance whether a hold of this instance owns the key, as this instance believes
 */
public record KeyState(String key, boolean held, @Nullable Duration remainingLease, boolean heldByThisInstance) {}
