/**
 * The distlock API: {@link io.distlock.Lock} hands out {@link io.distlock.LockHandle}s, each one acquisition of a named
 * lock with a {@link io.distlock.Lease}, an owner token and a fencing token.
 *
 * <p>The implementations are {@code io.distlock.redis.RedisLock} and its kinds (module {@code lock-redis}), and {@link
 * io.distlock.store.StoreLock} over a {@link io.distlock.store.LeaseStore}, which the JDBC and ZooKeeper modules
 * implement; Spring applications usually get one as a bean from a starter.
 */
@NullMarked
package io.distlock;

import org.jspecify.annotations.NullMarked;
