package io.distlock.tck.fuzz;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link LockView} read of a lock key found: the value that names its holder, or none, and when the holder's
 * lease ends, in ms since the epoch by the clock of the host that runs the run's servers and the witness. The witness
 * judges it by its own clock, the same one.
 *
 * @param holder the lock key's value, which begins with the holder's owner token (a lock may append a mark), or null if
 *     the key has no holder
 * @param leaseEndMillis when the holder's lease ends, in ms since the epoch; {@link #NEVER} if it does not end
 */
public record HolderRead(@Nullable String holder, long leaseEndMillis) {

    /** The lease end of a holder whose lease never ends. */
    public static final long NEVER = -1;

    private static final HolderRead NONE = new HolderRead(null, NEVER);

    /**
     * A key that no one holds, or whose holder's lease has run out.
     *
     * @return the read
     */
    public static HolderRead none() {
        return NONE;
    }

    /**
     * A key held by {@code holder} until {@code leaseEndMillis}.
     *
     * @param holder the key's value, beginning with the holder's owner token
     * @param leaseEndMillis when the lease ends, in ms since the epoch
     * @return the read
     */
    public static HolderRead until(String holder, long leaseEndMillis) {
        return new HolderRead(holder, leaseEndMillis);
    }

    /**
     * A key held by {@code holder} with no lease end.
     *
     * @param holder the key's value, beginning with the holder's owner token
     * @return the read
     */
    public static HolderRead forGood(String holder) {
        return new HolderRead(holder, NEVER);
    }

    /**
     * Whether the read names a holder whose value begins with {@code ownerToken}.
     *
     * @param ownerToken a section's owner token
     * @return true if the key was that owner's
     */
    public boolean heldBy(String ownerToken) {
        return holder != null && holder.startsWith(ownerToken);
    }
}
