/**
 * For the builders and implementations of {@link io.distlock.Lock}: the settings every engine's builder shares ({@link
 * io.distlock.spi.LockBuilder}, checked together into {@link io.distlock.spi.HoldSettings}), and the optional abilities
 * of a store that the API's default methods use when a lock offers them ({@link io.distlock.spi.KeysAtOnce}, {@link
 * io.distlock.spi.KeyOrder}). A backend on a store of its own implements {@link io.distlock.store.LeaseStore} instead,
 * and gets every promise of {@link io.distlock.Lock} from {@link io.distlock.store.StoreLock}. Applications call
 * {@link io.distlock.Lock}'s methods.
 */
@NullMarked
package io.distlock.spi;

import org.jspecify.annotations.NullMarked;
