package io.distlock.jdbc;

import io.distlock.LockBackendException;
import io.distlock.internal.text.PrintableText;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.sql.SQLException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One owner's attempts to take one key, or one of a semaphore key's permits: a take per {@link #tryTake()}, and
 * between takes a jittered, growing pause that a release through the same store cuts short. While other waiters of
 * this JVM are ahead in the line ({@link KeySignals}), it waits for its turn instead of asking the database.
 */
final class JdbcAcquisition implements LeaseStore.Acquisition {

    /** How an acquisition takes what it waits for, once per attempt. */
    interface Taking {

        /**
         * Makes this acquisition's place where the store keeps one, such as a ticket of a key's queue, on its first try
         * when this JVM's other waiters for the key are ahead of it, so that it keeps its place while it waits behind
         * them; an acquisition with no one of this JVM ahead makes it in its first {@link #take()}. Nothing by default.
         */
        default void arrive() throws SQLException {}

        /** Takes the key or a permit; null while it is held. */
        @Nullable
        Grant take() throws SQLException;

        /** Gives back what a take whose answer was lost may have granted; whether it had. */
        boolean giveBack() throws SQLException;

        /**
         * Tells the store that this acquisition waits and was refused again, once per refused poll: a writer keeps new
         * readers out so. Nothing by default.
         */
        default void waits() throws SQLException {}

        /** Tells the store that an acquisition that {@link #waits()} took the key or stopped waiting. */
        default void stopsWaiting() throws SQLException {}

        /** Gives up the place that {@link #arrive()} made, once the acquisition ended, with or without the key. */
        default void leave() throws SQLException {}

        /**
         * How the granted row is extended and released, for a taking whose grant is more than a row of a key; null, by
         * default, for the statements on a key's own row.
         */
        default JdbcStoreLease.@Nullable RowChanges changes() {
            return null;
        }
    }

    /**
     * What a take granted.
     *
     * @param row the row that holds it: the key's, or a permit's slot row
     * @param fencingToken its fencing token
     */
    record Grant(String row, long fencingToken) {}

    private static final Logger log = LoggerFactory.getLogger(JdbcAcquisition.class);

    private final LockRows rows;
    private final StoreErrors errors;
    private final KeySignals signals;
    private final Backoff backoff;
    private final String key;
    private final String line;
    private final String owner;
    private final Taking taking;

    private KeySignals.@Nullable Waiter waiter;
    private boolean granted;
    private boolean outcomeUnknown;
    private boolean awaited;
    private boolean markedWaiting;
    private boolean arrived;

    /**
     * @param key the key, for messages
     * @param line the line of this JVM's waiters: the key, or a semaphore key's {@link PermitRows#line}
     */
    JdbcAcquisition(
            LockRows rows,
            StoreErrors errors,
            KeySignals signals,
            Backoff backoff,
            String key,
            String line,
            String owner,
            Taking taking) {
        this.rows = rows;
        this.errors = errors;
        this.signals = signals;
        this.backoff = backoff;
        this.key = key;
        this.line = line;
        this.owner = owner;
        this.taking = taking;
    }

    @Override
    public @Nullable StoreLease tryTake() {
        if (!arrived) {
            arrived = true;
            if (signals.hasLine(line)) {
                try {
                    taking.arrive();
                } catch (SQLException e) {
                    throw errors.of("acquire", key, e);
                }
            }
        }
        if (waiter == null && signals.hasLine(line)) {
            // Waiters of this JVM are ahead: queue behind them rather than take the key from under the first one.
            waiter = signals.register(line);
        }
        if (waiter != null && !signals.isFirst(line, waiter)) {
            return null;
        }
        Grant grant;
        try {
            grant = taking.take();
        } catch (SQLException e) {
            outcomeUnknown = true;
            throw errors.of("acquire", key, e);
        }
        if (grant == null) {
            if (waiter == null) {
                // Registered from the first refusal on, so that a release before the first wait is not missed.
                waiter = signals.register(line);
            }
            if (awaited) {
                // Only an acquisition that waits says so: a try without a wait would keep readers out for nothing.
                markWaiting();
            }
            return null;
        }
        granted = true;
        stopWaiting();
        JdbcStoreLease.RowChanges changes = taking.changes();
        return new JdbcStoreLease(
                changes == null ? rows : changes,
                rows,
                errors,
                signals,
                new JdbcStoreLease.HeldRow(key, grant.row(), line),
                owner,
                grant.fencingToken());
    }

    @Override
    public void awaitChance(long deadlineNanos) throws InterruptedException {
        if (waiter == null) {
            waiter = signals.register(line);
        }
        long remaining = deadlineNanos - System.nanoTime();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (remaining <= 0) {
            return;
        }
        awaited = true;
        if (!signals.isFirst(line, waiter)) {
            // Woken when it becomes first, or by a release while it is; the first waiter polls for everyone.
            waiter.await(remaining);
        } else if (waiter.await(Math.min(backoff.next(), remaining))) {
            backoff.reset();
        }
    }

    @Override
    public void close() {
        if (waiter != null) {
            signals.unregister(line, waiter);
        }
        if (!granted) {
            stopWaiting();
        }
        try {
            taking.leave();
        } catch (SQLException e) {
            log.debug(
                    "Could not leave the queue of key '{}'; the place runs out shortly",
                    PrintableText.of(key),
                    errors.of("leave the queue of", key, e));
        }
        if (outcomeUnknown && !granted) {
            // A take whose answer was lost may have succeeded: give the key back so it is not held until the lease
            // ends.
            try {
                if (taking.giveBack()) {
                    signals.released(line);
                }
            } catch (SQLException e) {
                LockBackendException failure = errors.of("release", key, e);
                log.warn(
                        "Could not give back key '{}' after a failed acquisition; its lease frees it",
                        PrintableText.of(key),
                        failure);
            }
        }
    }

    private void markWaiting() {
        try {
            taking.waits();
            markedWaiting = true;
        } catch (SQLException e) {
            outcomeUnknown = true;
            throw errors.of("acquire", key, e);
        }
    }

    /** Ends this acquisition's wait mark; one that stays runs out shortly, so a failure is only logged. */
    private void stopWaiting() {
        if (!markedWaiting) {
            return;
        }
        markedWaiting = false;
        try {
            taking.stopsWaiting();
        } catch (SQLException e) {
            log.debug(
                    "Could not end the wait mark for key '{}'; it runs out shortly",
                    PrintableText.of(key),
                    errors.of("end the wait mark of", key, e));
        }
    }

    /** A lease in whole milliseconds, never shorter than asked: the database must not end it before the holder does. */
    static long millisRoundedUp(Duration lease) {
        long millis = lease.toMillis();
        return lease.equals(Duration.ofMillis(millis)) ? millis : millis + 1;
    }
}
