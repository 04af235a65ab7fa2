/**
 * What a lock lets operators see: {@link io.distlock.monitor.LockObserver} hears acquisitions, holds, renewals and
 * handovers as they happen, for metrics and tracing; {@link io.distlock.monitor.InspectableLock} answers which locks
 * this instance holds, who waits, and how a key stands on the server. distlock's Spring Boot auto-configuration binds
 * both to Micrometer and Actuator; other integrations implement or call them directly.
 */
@NullMarked
package io.distlock.monitor;

import org.jspecify.annotations.NullMarked;
