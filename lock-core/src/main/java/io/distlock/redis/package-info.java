/**
 * The Redis implementation of {@link io.distlock.Lock}: {@link io.distlock.redis.RedisLock}, and the one pub/sub
 * subscription, {@link io.distlock.redis.ReleaseSubscription}, over which releases wake waiting threads.
 */
@NullMarked
package io.distlock.redis;

import org.jspecify.annotations.NullMarked;
