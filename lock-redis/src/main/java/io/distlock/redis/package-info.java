/**
 * The Redis implementations of {@link io.distlock.Lock}: {@link io.distlock.redis.RedisLock} on one Redis (standalone,
 * Sentinel or a cluster), {@link io.distlock.redis.Redlock} over several independent Redis masters, and the one pub/sub
 * subscription, {@link io.distlock.redis.ReleaseSubscription}, over which releases wake waiting threads.
 *
 * <p>The lock kinds' public types are here too ({@link io.distlock.redis.FairLock}, {@link io.distlock.redis.ReadLock},
 * {@link io.distlock.redis.PathLock}); their machinery is in the {@code internal} packages below, which promise
 * nothing. Each lock and its builder know each other, the one cycle here: the lock names its builder as its entry
 * point, and the builder builds it.
 */
@NullMarked
package io.distlock.redis;

import org.jspecify.annotations.NullMarked;
