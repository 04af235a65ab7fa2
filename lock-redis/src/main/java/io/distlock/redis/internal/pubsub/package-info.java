/**
 * The release subscription's connection, classic and sharded, and the listener interface that waiters are woken
 * through. It knows channels and messages, not locks.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.pubsub;

import org.jspecify.annotations.NullMarked;
