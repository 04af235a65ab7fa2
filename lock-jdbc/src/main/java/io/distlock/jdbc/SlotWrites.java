package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Writes a grant into a slot row of the lock table, such as a semaphore's permit ({@link PermitRows}) or a read
 * ({@link ReadRows}): an update of the row where it exists, else an insert, inside the caller's transaction, which
 * holds the row of the key that the slot belongs to.
 */
final class SlotWrites {

    private final LockRows rows;
    private final boolean namesHolder;
    private final String takeSlot;
    private final String insertSlot;

    SlotWrites(LockRows rows, Dialect dialect, String table, LockSql sql) {
        this.rows = rows;
        this.namesHolder = sql.namesHolder();
        String now = dialect.now();
        String expiry = dialect.nowPlusMillis();
        this.takeSlot = "UPDATE " + table + " SET owner_token = ?, expires_at = " + expiry + ", fencing = ?"
                + (namesHolder ? ", locked_by = ?, locked_at = " + now : "") + " WHERE lock_key = ?";
        this.insertSlot = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing"
                + (namesHolder ? ", locked_by, locked_at" : "") + ") VALUES (?, ?, " + expiry + ", ?"
                + (namesHolder ? ", ?, " + now : "") + ")";
    }

    /** Grants the slot row to the owner for {@code leaseMillis} on the database's clock, with this fencing token. */
    void grant(Connection connection, String slotRow, String owner, String holder, long leaseMillis, long token)
            throws SQLException {
        Object[] taking = namesHolder
                ? new Object[] {owner, leaseMillis, token, holder, slotRow}
                : new Object[] {owner, leaseMillis, token, slotRow};
        if (rows.write(connection, takeSlot, taking) == 0) {
            rows.write(
                    connection,
                    insertSlot,
                    namesHolder
                            ? new Object[] {slotRow, owner, leaseMillis, token, holder}
                            : new Object[] {slotRow, owner, leaseMillis, token});
        }
    }
}
