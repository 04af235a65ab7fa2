package io.distlock.jdbc;

import io.distlock.LockLostException;
import io.distlock.store.StoreLease;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * A key, or one of a semaphore key's permits, granted to one owner; every statement on it compares the owner token and
 * the expiry on the database's clock.
 */
final class JdbcStoreLease implements StoreLease {

    /**
     * Where a grant lives.
     *
     * @param key the application's key, for messages
     * @param row the row that holds the grant: the key's own, or a permit's slot row
     * @param line the line of this JVM's waiters that a release wakes
     */
    record HeldRow(String key, String row, String line) {}

    /** How a held row is extended and released, comparing the owner token and the expiry on the database's clock. */
    interface RowChanges {

        /** Moves the row's expiry to {@code leaseMillis} from now if the owner still holds it. */
        boolean extend(String row, String owner, long leaseMillis) throws SQLException;

        /** Frees the row if the owner still holds it. */
        boolean release(String row, String owner) throws SQLException;
    }

    private final RowChanges changes;
    private final LockRows rows;
    private final StoreErrors errors;
    private final KeySignals signals;
    private final HeldRow held;
    private final String owner;
    private final long fencingToken;

    /**
     * @param changes how the row is extended and released
     * @param rows reads whether the row is still the owner's
     */
    JdbcStoreLease(
            RowChanges changes,
            LockRows rows,
            StoreErrors errors,
            KeySignals signals,
            HeldRow held,
            String owner,
            long fencingToken) {
        this.changes = changes;
        this.rows = rows;
        this.errors = errors;
        this.signals = signals;
        this.held = held;
        this.owner = owner;
        this.fencingToken = fencingToken;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean extend(Duration lease) {
        try {
            return changes.extend(held.row(), owner, JdbcAcquisition.millisRoundedUp(lease));
        } catch (SQLException e) {
            throw errors.of("extend", held.key(), e);
        }
    }

    /**
     * One SELECT of the row with this owner's token and an expiry ahead of the database's clock; when the row is no
     * longer this owner's, a second one tells whether an operator freed it.
     */
    @Override
    public Optional<LockLostException.Reason> checkOwned() {
        try {
            if (rows.owned(held.row(), owner)) {
                return Optional.empty();
            }
            return Optional.of(
                    rows.releasedForOperator(held.row(), fencingToken)
                            ? LockLostException.Reason.RELEASED_BY_OPERATOR
                            : LockLostException.Reason.KEY_GONE);
        } catch (SQLException e) {
            throw errors.of("confirm the hold of", held.key(), e);
        }
    }

    /** Frees the row if this owner still holds it, and wakes this JVM's waiters of its line. */
    @Override
    public boolean release() {
        boolean released;
        try {
            released = changes.release(held.row(), owner);
        } catch (SQLException e) {
            throw errors.of("release", held.key(), e);
        }
        if (released) {
            signals.released(held.line());
        }
        return released;
    }

    @Override
    public String toString() {
        return "JdbcStoreLease[key=" + held.key() + ", fencingToken=" + fencingToken + "]";
    }
}
