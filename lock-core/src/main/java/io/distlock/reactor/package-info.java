/**
 * Locks for Reactor code: {@link io.distlock.reactor.ReactiveLock} acquires without blocking and holds a lock for the
 * life of a {@code Mono} or {@code Flux}, and {@link io.distlock.reactor.ReactiveLockContext} finds the held lock in
 * the Reactor {@code Context}. Needs {@code io.projectreactor:reactor-core} on the class path; nothing else in
 * distlock does.
 */
@NullMarked
package io.distlock.reactor;

import org.jspecify.annotations.NullMarked;
