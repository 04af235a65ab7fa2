package io.distlock.tck.fuzz;

import org.jspecify.annotations.Nullable;

/**
 * A lock key as a judgement sees it: the holder read just before, and what is left of its lease by the witness's clock
 * at the judgement. Claims end 2 ms before the lease as read, so that a claim never outlives the lease it was read
 * from, and a holder whose lease ran out stops counting as inside no later than another may take the lock.
 *
 * @param holder the key's value, or null if the key has no holder
 * @param ttl ms left of the lease at {@code at}; {@link #FOR_GOOD} if it never ends, {@link #GONE} without a holder
 * @param at the witness's time of the judgement, ms since the epoch
 */
record LockSight(@Nullable String holder, long ttl, long at) {

    /** The ttl of a lease that never ends. */
    static final long FOR_GOOD = -1;

    /** The ttl of a key without a holder. */
    static final long GONE = -2;

    /** The end of a claim on a lease that never ends. */
    static final long NO_END = Long.MAX_VALUE;

    /** How long before the lease as read a claim ends, and how little lease left makes a read of one's own stale. */
    private static final long MARGIN = 2;

    /**
     * The key as read, at the witness's time {@code now}; null if the read is stale: the section's own lease, as read,
     * has {@value #MARGIN} ms or less left, so the key may have been renewed or taken since. Another holder's lease is
     * never judged by its length.
     */
    static @Nullable LockSight of(HolderRead read, String ownerToken, long now) {
        if (read.holder() == null) {
            return new LockSight(null, GONE, now);
        }
        if (read.leaseEndMillis() == HolderRead.NEVER) {
            return new LockSight(read.holder(), FOR_GOOD, now);
        }
        long ttl = read.leaseEndMillis() - now;
        if (ttl <= MARGIN && read.heldBy(ownerToken)) {
            return null;
        }
        return new LockSight(read.holder(), ttl, now);
    }

    /** Whether the key was the section's: its value begins with the section's owner token. */
    boolean mine(String ownerToken) {
        return holder != null && holder.startsWith(ownerToken);
    }

    /** Whether the lease has more than a claim's margin left: a claim on it would still be alive. */
    boolean outlastsMargin() {
        return ttl > MARGIN;
    }

    /** When a claim on this lease ends, ms since the epoch: {@value #MARGIN} ms before the lease, or never. */
    long claimEnd() {
        return ttl > 0 ? at + ttl - MARGIN : NO_END;
    }
}
