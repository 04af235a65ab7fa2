/** The {@link io.distlock.Lock} bean on Redis: a {@code RedisLock} on the application's Redis connection, or a {@code Redlock} over {@code distlock.redlock.nodes}. */
@NullMarked
package io.distlock.autoconfigure.redis;

import org.jspecify.annotations.NullMarked;
