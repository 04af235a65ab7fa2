package io.distlock.redis.internal.engine;

import io.distlock.Lease;

/**
 * A lease as its caller asked for it and as Redis counts it: the watchdog lease for a renewed one, its own duration
 * for a fixed one. It is resolved once, where the call enters ({@link LockKit#validate}), and carried to the script.
 *
 * @param lease what the caller asked for; the handle keeps it
 * @param storeMillis the lease that the scripts set in Redis
 */
public record LeaseAsked(Lease lease, long storeMillis) {}
