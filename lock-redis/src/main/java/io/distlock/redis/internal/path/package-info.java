/**
 * The path lock's unit: its scripts over O(depth) keys, its commands, tree paths, and the holds and renewer that path
 * locks share. {@link io.distlock.redis.PathLock} takes paths through it.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.path;

import org.jspecify.annotations.NullMarked;
