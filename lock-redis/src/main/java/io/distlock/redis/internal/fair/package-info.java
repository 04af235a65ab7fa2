/**
 * The fair lock's unit: its scripts (a queue of tickets in Redis), its commands, and the routing of handovers to this
 * instance's fair waiters. {@link io.distlock.redis.FairLock} takes keys through it.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.fair;

import org.jspecify.annotations.NullMarked;
