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
 * One owner's attempts to take one key: a take per {@link #tryTake()}, and between takes a jittered, growing pause
 * that a release of the key through the same store cuts short. While other waiters of this JVM are ahead in the key's
 * line ({@link KeySignals}), it waits for its turn instead of asking the database.
 */
final class JdbcAcquisition implements LeaseStore.Acquisition {

    private static final Logger log = LoggerFactory.getLogger(JdbcAcquisition.class);

    private final LockRows rows;
    private final StoreErrors errors;
    private final KeySignals signals;
    private final Backoff backoff;
    private final String key;
    private final String owner;
    private final String holder;
    private final long leaseMillis;

    private KeySignals.@Nullable Waiter waiter;
    private boolean granted;
    private boolean outcomeUnknown;

    JdbcAcquisition(
            LockRows rows,
            StoreErrors errors,
            KeySignals signals,
            Backoff backoff,
            String key,
            String owner,
            String holder,
            Duration lease) {
        this.rows = rows;
        this.errors = errors;
        this.signals = signals;
        this.backoff = backoff;
        this.key = key;
        this.owner = owner;
        this.holder = holder;
        this.leaseMillis = millisRoundedUp(lease);
    }

    @Override
    public @Nullable StoreLease tryTake() {
        if (waiter == null && signals.hasLine(key)) {
            // Waiters of this JVM are ahead: queue behind them rather than take the key from under the first one.
            waiter = signals.register(key);
        }
        if (waiter != null && !signals.isFirst(key, waiter)) {
            return null;
        }
        Long fencingToken;
        try {
            fencingToken = rows.take(key, owner, holder, leaseMillis);
        } catch (SQLException e) {
            outcomeUnknown = true;
            throw errors.of("acquire", key, e);
        }
        if (fencingToken == null) {
            if (waiter == null) {
                // Registered from the first refusal on, so that a release before the first wait is not missed.
                waiter = signals.register(key);
            }
            return null;
        }
        granted = true;
        return new JdbcStoreLease(rows, errors, signals, key, owner, fencingToken);
    }

    @Override
    public void awaitChance(long deadlineNanos) throws InterruptedException {
        if (waiter == null) {
            waiter = signals.register(key);
        }
        long remaining = deadlineNanos - System.nanoTime();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (remaining <= 0) {
            return;
        }
        if (!signals.isFirst(key, waiter)) {
            // Woken when it becomes first, or by a release while it is; the first waiter polls for everyone.
            waiter.await(remaining);
        } else if (waiter.await(Math.min(backoff.next(), remaining))) {
            backoff.reset();
        }
    }

    @Override
    public void close() {
        if (waiter != null) {
            signals.unregister(key, waiter);
        }
        if (outcomeUnknown && !granted) {
            // A take whose answer was lost may have succeeded: give the key back so it is not held until the lease
            // ends.
            try {
                release(rows, errors, signals, key, owner);
            } catch (LockBackendException e) {
                log.warn(
                        "Could not give back key '{}' after a failed acquisition; its lease frees it",
                        PrintableText.of(key),
                        e);
            }
        }
    }

    /** Releases the key if this owner holds it, and wakes this JVM's waiters for it. */
    static boolean release(LockRows rows, StoreErrors errors, KeySignals signals, String key, String owner) {
        boolean released;
        try {
            released = rows.release(key, owner);
        } catch (SQLException e) {
            throw errors.of("release", key, e);
        }
        if (released) {
            signals.released(key);
        }
        return released;
    }

    /** A lease in whole milliseconds, never shorter than asked: the database must not end it before the holder does. */
    static long millisRoundedUp(Duration lease) {
        long millis = lease.toMillis();
        return lease.equals(Duration.ofMillis(millis)) ? millis : millis + 1;
    }
}
