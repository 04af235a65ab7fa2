/**
 * The distlock API: {@link io.distlock.Lock} hands out {@link io.distlock.LockHandle}s, each one acquisition of a named
 * lock with a {@link io.distlock.Lease}, an owner token and a fencing token.
 *
 * <p>The Redis implementation is {@link io.distlock.redis.RedisLock}; Spring applications usually get it as a bean from
 * the starter.
 */
@NullMarked
package io.distlock;

import org.jspecify.annotations.NullMarked;
