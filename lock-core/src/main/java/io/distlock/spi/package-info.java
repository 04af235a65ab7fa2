/**
 * For implementations of {@link io.distlock.Lock}: optional abilities of a store that the API's default methods use
 * when a lock offers them, and what every backend builds on, so that its handles and views behave as every other
 * backend's: the argument checks ({@link io.distlock.spi.LockArguments}), the handle on a hold ({@link
 * io.distlock.spi.HoldHandle} over the backend's {@link io.distlock.spi.HoldOperations}), and the thread-owned JDK lock
 * view ({@link io.distlock.spi.JavaLockView}) with the registry its lock re-enters through ({@link
 * io.distlock.spi.ThreadOwnedHandles}). Applications call {@link io.distlock.Lock}'s methods instead.
 */
@NullMarked
package io.distlock.spi;

import org.jspecify.annotations.NullMarked;
