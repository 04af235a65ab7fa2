package io.distlock.jdbc;

import io.distlock.LockLostException;
import io.distlock.store.StoreLease;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * A key granted to one owner; every statement on it compares the owner token and the expiry on the database's clock.
 */
final class JdbcStoreLease implements StoreLease {

    private final LockRows rows;
    private final StoreErrors errors;
    private final KeySignals signals;
    private final String key;
    private final String owner;
    private final long fencingToken;

    JdbcStoreLease(LockRows rows, StoreErrors errors, KeySignals signals, String key, String owner, long fencingToken) {
        this.rows = rows;
        this.errors = errors;
        this.signals = signals;
        this.key = key;
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
            return rows.extend(key, owner, JdbcAcquisition.millisRoundedUp(lease));
        } catch (SQLException e) {
            throw errors.of("extend", key, e);
        }
    }

    /**
     * One SELECT of the key's row with this owner's token and an expiry ahead of the database's clock; when the key is
     * no longer this owner's, a second one tells whether an operator freed it.
     */
    @Override
    public Optional<LockLostException.Reason> checkOwned() {
        try {
            if (rows.owned(key, owner)) {
                return Optional.empty();
            }
            return Optional.of(
                    rows.releasedForOperator(key, fencingToken)
                            ? LockLostException.Reason.RELEASED_BY_OPERATOR
                            : LockLostException.Reason.KEY_GONE);
        } catch (SQLException e) {
            throw errors.of("confirm the hold of", key, e);
        }
    }

    @Override
    public boolean release() {
        return JdbcAcquisition.release(rows, errors, signals, key, owner);
    }

    @Override
    public String toString() {
        return "JdbcStoreLease[key=" + key + ", fencingToken=" + fencingToken + "]";
    }
}
