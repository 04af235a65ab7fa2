/**
 * The small provider API for stores other than Redis: a backend implements {@link io.distlock.store.LeaseStore}, and
 * {@link io.distlock.store.StoreLock} builds the whole {@link io.distlock.Lock} API on it (scopes and re-entry,
 * renewed and fixed leases, lost-lock reporting, the {@code java.util.concurrent} view, several keys and the
 * non-blocking methods). Applications use {@code Lock}; backend modules such as lock-jdbc and lock-zookeeper implement
 * this package.
 */
@NullMarked
package io.distlock.store;

import org.jspecify.annotations.NullMarked;
