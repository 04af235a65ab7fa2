package io.distlock;

import java.time.Duration;

/**
 * The holder of a lock no longer holds it: the lease ran out or another owner took the key before the holder released
 * it. Work done after {@link #lostAfter()} was not protected by the lock; a resource that checks fencing tokens rejects
 * the stale holder's writes.
 */
public class LockLostException extends LockException {

    private static final long serialVersionUID = 1L;

    /** Why a held lock was lost. */
    public enum Reason {
        /** A fixed lease ran out before the holder released the lock. */
        LEASE_EXPIRED("its fixed lease ran out before release"),
        /**
         * The store (Redis, the lock table, ZooKeeper) no longer had the key: it expired, was deleted by someone else,
         * or went with the holder's ZooKeeper session.
         */
        KEY_GONE("the store no longer has the key (it expired or was deleted)"),
        /**
         * The connection to the store broke while the lock was held (a ZooKeeper connection suspended or read-only):
         * the holder cannot tell whether the store still keeps the hold, which may already have gone with an expired
         * session and been granted to another owner, so the hold ends at once. The key may still have been this
         * holder's; it is freed once the connection is back, or with the session.
         */
        CONNECTION_SUSPENDED("the connection to the store broke, so the hold may already be another owner's"),
        /** The store had the key, but under another owner's token. */
        OWNED_BY_OTHER("another owner holds the key now"),
        /** Renewals failed (the store unreachable or slow) until the lease must have run out. */
        RENEWAL_FAILED("renewals failed until the lease must have run out"),
        /**
         * The lock client was closed (the application shut down) while the lock was still held, and the lock was not
         * released within the shutdown grace period; renewals stopped, so the lease runs out in the store.
         */
        CLIENT_CLOSED("the lock client was closed while the lock was held, and renewals stopped"),
        /**
         * The grant reached the holder after its lease had already run out (a slow answer, a paused process), so the
         * work that was to run under it did not start.
         */
        GRANTED_TOO_LATE("its grant arrived after its lease had run out, so the work under it did not start"),
        /**
         * The hold reached the longest time a renewed lease is kept alive (the lock's maximum hold, {@code
         * distlock.watchdog.max-hold}): renewals stopped, and the lease then ran out in the store, as it does for a
         * holder that died. It bounds how long a holder that hung keeps the key from everyone else.
         */
        MAX_HOLD_REACHED("it was held for the lock's maximum hold, so renewals stopped and its lease ran out"),
        /**
         * An operator released the key, naming this hold's fencing token ({@link
         * io.distlock.monitor.InspectableLock#releaseForOperator}), as a way out of a key held by a process that was
         * stuck: the work under the hold may still have been running.
         */
        RELEASED_BY_OPERATOR("an operator released it, naming its fencing token");

        private final String description;

        Reason(String description) {
            this.description = description;
        }

        /**
         * A short explanation for messages and logs.
         *
         * @return the explanation
         */
        public String description() {
            return description;
        }
    }

    private final Reason reason;
    private final Duration lostAfter;

    /**
     * Creates the exception.
     *
     * @param key the lock's key
     * @param reason why the lock was lost
     * @param lostAfter how long after acquisition the loss was detected (by the holder's monotonic clock)
     */
    public LockLostException(String key, Reason reason, Duration lostAfter) {
        super(
                key,
                "Lock '" + key + "' was lost " + lostAfter.toMillis() + " ms after it was acquired: "
                        + reason.description(),
                null);
        this.reason = reason;
        this.lostAfter = lostAfter;
    }

    /**
     * Creates the exception with a message of its own, for subclasses that say more.
     *
     * @param key the lock's key
     * @param reason why the lock was lost
     * @param lostAfter how long after acquisition the loss was detected
     * @param message the message
     * @param cause the exception this one describes further
     */
    protected LockLostException(String key, Reason reason, Duration lostAfter, String message, Throwable cause) {
        super(key, message, cause);
        this.reason = reason;
        this.lostAfter = lostAfter;
    }

    /**
     * Why the lock was lost.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * How long after acquisition the loss was detected.
     *
     * @return the time from acquisition to detection
     */
    public Duration lostAfter() {
        return lostAfter;
    }
}
