/**
 * The semaphore kind on Redis ({@link io.distlock.Kind#SEMAPHORE}): its acquisition script. A semaphore key's permits
 * are the fields of one hash, as a read lock's readers are, so every other operation on a permit (check, extend,
 * renew, release, inspect) is the hold scripts' own.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.semaphore;

import org.jspecify.annotations.NullMarked;
