/**
 * The waiters of this process, per key and in order of arrival: turns, handovers inside the process, and the helpers
 * that bound every wait by its deadline. A {@link io.distlock.redis.internal.waiting.KeyQueue} and its {@link
 * io.distlock.redis.internal.waiting.Waiter}s know each other, the one cycle here: a waiter asks its queue whether its
 * turn is due, under the queue's guard, and the queue holds its waiters in order.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.waiting;

import org.jspecify.annotations.NullMarked;
