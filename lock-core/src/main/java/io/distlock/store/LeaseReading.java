package io.distlock.store;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * How a held key stands in a {@link LeaseStore}, as {@link LeaseStore#readLease(String)} read it.
 *
 * @param remaining how long the current lease still runs, on the store's clock
 * @param holder the instance name the holder's acquisition gave ({@link LeaseStore#begin(String, String, String,
 *     Duration)}), or null if the store keeps none for this hold
 * @param since when the holder took the key, on the store's clock, or null whenever {@code holder} is
 */
public record LeaseReading(
        Duration remaining,
        @Nullable String holder,
        @Nullable Instant since) {}
