package io.distlock.zookeeper;

import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * What a waiter checks about the nodes ahead of it in a key's queue that hold, or should hold, the key: whether a
 * holder's lease ran out on the server's clock, and whether a node that came first stayed unclaimed for too long.
 * Either is removed then, through {@link NodeRemovals}. One waiter's, used by one thread at a time.
 */
final class AheadChecks {

    /** What {@link #leaseEnd} answers for a lease that ended. */
    static final long EXPIRED = Long.MIN_VALUE;

    private final ZooKeeperLeaseStore store;
    private final String key;
    private final NodeRemovals removals;
    private ServerClock.@Nullable Reading clock;
    /** The node, not yet claimed, that this waiter has been behind since {@link #unclaimedSinceNanos}. */
    private @Nullable String unclaimedHead;

    private long unclaimedSinceNanos;

    AheadChecks(ZooKeeperLeaseStore store, String key) {
        this.store = store;
        this.key = key;
        this.removals = new NodeRemovals(store, key);
    }

    /** A reading of the server's clock that came free with a node's creation, sent at {@code sentNanos}. */
    void clockRead(long serverMillis, long sentNanos) {
        clock = new ServerClock.Reading(serverMillis, sentNanos);
    }

    /** When a holder's lease ends in {@link System#nanoTime()}, or {@link #EXPIRED} once its node is removed for it. */
    long leaseEnd(String holderPath, Stat stat, LeaseData holder) {
        unclaimedHead = null;
        long expiresAt = stat.getMtime() + holder.leaseMillis();
        ServerClock.Reading known = clock;
        if (known == null || known.earliestLocalNanos(expiresAt) - System.nanoTime() <= 0) {
            known = store.clock().read(key);
            clock = known;
            if (known.serverMillis() >= expiresAt) {
                removals.removeExpired(holderPath, stat.getVersion());
                return EXPIRED;
            }
        }
        return Math.max(known.earliestLocalNanos(expiresAt), EXPIRED + 1);
    }

    /**
     * Checks a node that should hold the key but whose owner has not claimed it yet: removes it if it stayed unclaimed
     * for the grace since this waiter first saw it so.
     *
     * @return when to look again in {@link System#nanoTime()}, or {@link #EXPIRED} if it was removed
     */
    long awaitClaim(String headPath, Stat stat) {
        long now = System.nanoTime();
        if (!headPath.equals(unclaimedHead)) {
            unclaimedHead = headPath;
            unclaimedSinceNanos = now;
        } else if (now - unclaimedSinceNanos - unclaimedGraceNanos() >= 0) {
            unclaimedHead = null;
            removals.removeUnclaimed(headPath, stat.getVersion(), unclaimedGraceNanos());
            return EXPIRED;
        }
        return unclaimedSinceNanos + unclaimedGraceNanos();
    }

    /**
     * How long a node that should hold may stay unclaimed: twice the call timeout. A live owner claims its node within
     * one call of the change that let it hold, and {@code StoreLock} gives up on a call, and removes the node, after
     * the timeout.
     */
    long unclaimedGraceNanos() {
        return store.callTimeout().toNanos() * 2;
    }

    /** Forgets a watch that this waiter set on a node ahead, so that the node's removal does not call it. */
    void forgetWatch(String path, org.apache.zookeeper.Watcher watcher) {
        removals.forgetWatch(path, watcher);
    }
}
