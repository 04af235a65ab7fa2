/**
 * Micrometer meters and observations of distlock's locks, auto-configured when the application has a {@code
 * MeterRegistry} or an {@code ObservationRegistry}.
 */
@NullMarked
package io.distlock.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
