/**
 * What the engines of distlock share, so that every backend's handles and views behave alike: the handle on a
 * hold ({@link io.distlock.internal.engine.HoldHandle} over the backend's {@link
 * io.distlock.internal.engine.HoldOperations}), the thread-owned JDK lock view and the registry its lock re-enters
 * through, the argument checks, the guarded observer and the registry of lock kinds.
 *
 * <p>Internal: public only so that distlock's modules can reach it. Nothing here is a promise; it may change in any
 * release.
 */
@NullMarked
package io.distlock.internal.engine;

import org.jspecify.annotations.NullMarked;
