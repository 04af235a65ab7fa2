/**
 * The Redlock vote: one acquisition, renewal or release sent to every node of a group and decided by the majority,
 * with fencing tokens settled across the granting majority and late grants released again.
 *
 * <p>Internal: public only so that the packages of lock-redis can reach each other. Nothing here is a promise; it may
 * change in any release.
 */
@NullMarked
package io.distlock.redis.internal.redlock;

import org.jspecify.annotations.NullMarked;
