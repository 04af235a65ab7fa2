/**
 * The Redis engine of one lock: the commands of one server, holds and their renewal, acquisition (blocking and
 * asynchronous), release with handover, several keys in one script, and the observer calls. The lock kinds and the
 * Redlock vote are built on it, one package each.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.engine;

import org.jspecify.annotations.NullMarked;
