package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Writes a grant into a slot row of the lock table, such as a semaphore's permit ({@link PermitRows}) or a read
 * ({@link ReadRows}): an update of the row where it exists, else an insert, inside the caller's transaction, which
 * holds the row of the key that the slot belongs to.
 */
final class SlotWrites {

    private final LockRows rows;
    private final boolean namesHolder;
    private final String takeSlot;
    private final String takeSlots;
    private final String insertSlot;

    SlotWrites(LockRows rows, Dialect dialect, String table, LockSql sql) {
        this.rows = rows;
        this.namesHolder = sql.namesHolder();
        String now = dialect.now();
        String expiry = dialect.nowPlusMillis();
        this.takeSlot = "UPDATE " + table + " SET owner_token = ?, expires_at = " + expiry + ", fencing = ?"
                + (namesHolder ? ", locked_by = ?, locked_at = " + now : "") + " WHERE lock_key = ?";
        this.takeSlots = takeSlot.substring(0, takeSlot.length() - "= ?".length()) + "IN ";
        this.insertSlot = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing"
                + (namesHolder ? ", locked_by, locked_at" : "") + ") VALUES (?, ?, " + expiry + ", ?"
                + (namesHolder ? ", ?, " + now : "") + ")";
    }

    /**
     * Grants several slot rows to the owner at once, as {@link #grant} grants one: those known to exist in one
     * statement, and each of the others as {@link #grant} does, since a row not read may still exist.
     */
    void grantAll(
            Connection connection,
            List<String> existing,
            List<String> missing,
            String owner,
            String holder,
            long leaseMillis,
            long token)
            throws SQLException {
        if (!existing.isEmpty()) {
            Object[] taking = namesHolder
                    ? LockRows.parameters(existing, owner, leaseMillis, token, holder)
                    : LockRows.parameters(existing, owner, leaseMillis, token);
            rows.write(connection, takeSlots + LockRows.marks(existing.size()), taking);
        }
        for (String slotRow : missing) {
            grant(connection, slotRow, owner, holder, leaseMillis, token);
        }
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
