/**
 * The bottom of the Redis engine: the Lua scripts, one per operation, with their keys under one hash tag; the runner
 * that sends them through Spring Data Redis's reactive API and hands back a {@link
 * io.distlock.redis.internal.scripts.ScriptCall}; and the names they share: Redis keys, owner tokens, release channels
 * and release ids. The read lock's scripts are here too, since every writer's script checks the readers' hash of its
 * key. Nothing here knows a lock, a waiter or a subscription.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.scripts;

import org.jspecify.annotations.NullMarked;
