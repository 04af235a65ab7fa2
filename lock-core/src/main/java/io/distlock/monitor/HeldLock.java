package io.distlock.monitor;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One hold of this instance, as {@link InspectableLock#heldLocks()} sees it; it never carries the owner token.
 *
 * @param key the key, or for a path lock the path
 * @param tree the tree of a path lock; null for every other kind
 * @param kind how the lock was taken
 * @param since when the hold began by this machine's clock, for display only: leases are counted by the server
 * @param heldFor how long the hold has lasted, by the monotonic clock
 * @param renewed whether the lease is renewed automatically (false: a fixed lease)
 * @param remainingLease this instance's conservative estimate of the lease left, never longer than the server's; {@link
 *     Duration#ZERO} once it ran out
 * @param fencingToken the hold's fencing token
 * @param acquiredBy the name of the thread that acquired the lock
 * @param boundThread the thread that owns the lock, for a lock taken through {@link io.distlock.Lock#asJavaLock}, which
 *     only that thread may release; null where any thread may release it
 * @param handles how many open handles share the hold: 1, plus one per nested acquisition
 */
public record HeldLock(
        String key,
        @Nullable String tree,
        LockKind kind,
        Instant since,
        Duration heldFor,
        boolean renewed,
        Duration remainingLease,
        long fencingToken,
        String acquiredBy,
        @Nullable String boundThread,
        int handles) {}
