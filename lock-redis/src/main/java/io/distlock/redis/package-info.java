/**
 * The Redis implementations of {@link io.distlock.Lock}: {@link io.distlock.redis.RedisLock} on one Redis (standalone,
 * Sentinel or a cluster), {@link io.distlock.redis.Redlock} over several independent Redis masters, and the one pub/sub
 * subscription, {@link io.distlock.redis.ReleaseSubscription}, over which releases wake waiting threads.
 */
@NullMarked
package io.distlock.redis;

import org.jspecify.annotations.NullMarked;
