package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds which of a list of rows hold a live grant on the database's clock: the slot rows of a semaphore's permits
 * ({@link PermitRows}) or of a key's readers ({@link ReadRows}). The rows are named one by one, so that the index finds
 * each, whatever the collation of the key column makes of the control characters in their names.
 */
final class LiveRows {

    private final LockRows rows;
    private final String table;
    private final String now;

    LiveRows(LockRows rows, String table, Dialect dialect) {
        this.rows = rows;
        this.table = table;
        this.now = dialect.now();
    }

    /** The rows among {@code names} that have an owner and an expiry ahead of the database's clock. */
    Set<String> of(Connection connection, List<String> names) throws SQLException {
        if (names.isEmpty()) {
            return Set.of();
        }
        String query = "SELECT lock_key FROM " + table + " WHERE lock_key IN " + LockRows.marks(names.size())
                + " AND owner_token IS NOT NULL AND expires_at > " + now;
        Set<String> live = new HashSet<>();
        try (PreparedStatement read = rows.prepare(connection, query, names.toArray());
                ResultSet row = read.executeQuery()) {
            while (row.next()) {
                live.add(row.getString(1));
            }
        }
        return live;
    }
}
